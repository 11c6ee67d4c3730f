import CellarCLI
import Glibc

exit(CellarCLI.run(Array(CommandLine.arguments.dropFirst()), io: .standard))
