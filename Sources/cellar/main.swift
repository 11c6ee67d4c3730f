import CellarCLI
import Glibc

exit(CellarCLI.run(argv: CommandLine.unsafeArgv, count: CommandLine.argc, io: .standard))
