import CellarCLI
import CellarKit
import TestSupport
import Testing
