print("cellar-bench: no benchmarks yet")
