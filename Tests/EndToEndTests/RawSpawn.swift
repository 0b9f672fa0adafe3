import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Starts `txfold` with `posix_spawn`, for what `Process` cannot do: a child
/// whose standard error is closed (`2>&-`).
enum RawSpawn {
  struct Outcome {
    var status: Int32
    var stdout: [UInt8]
  }

  /// Runs `txfold arguments` (paths absolute), standard input empty (a closed pipe),
  /// standard output captured, standard error closed.
  static func runWithStandardErrorClosed(_ arguments: [String]) throws -> Outcome {
    var input: [Int32] = [0, 0]
    var output: [Int32] = [0, 0]
    guard pipe(&input) == 0, pipe(&output) == 0 else { throw POSIXError(.EMFILE) }
    // An opaque pointer on Darwin (starts nil, set by init), a struct on glibc and musl.
    #if canImport(Darwin)
      var actions: posix_spawn_file_actions_t? = nil
    #else
      var actions = posix_spawn_file_actions_t()
    #endif
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_adddup2(&actions, input[0], 0)
    posix_spawn_file_actions_adddup2(&actions, output[1], 1)
    posix_spawn_file_actions_addclose(&actions, 2)
    for descriptor in input + output { posix_spawn_file_actions_addclose(&actions, descriptor) }
    let argv = ([CLIRunner.binary.path] + arguments).map { strdup($0) } + [nil]
    defer { for pointer in argv { free(pointer) } }
    var child: pid_t = 0
    // Darwin's headers do not declare `environ` for programs; _NSGetEnviron gives the same array.
    #if canImport(Darwin)
      let environment = _NSGetEnviron().pointee
    #else
      let environment = environ
    #endif
    let spawned = posix_spawn(&child, CLIRunner.binary.path, &actions, nil, argv, environment)
    close(input[0])
    close(input[1])
    close(output[1])
    guard spawned == 0 else {
      close(output[0])
      throw POSIXError(POSIXErrorCode(rawValue: spawned) ?? .EINVAL)
    }
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    while true {
      let count = read(output[0], &buffer, buffer.count)
      if count > 0 {
        bytes += buffer[..<count]
      } else if count < 0 && errno == EINTR {
        continue
      } else {
        break
      }
    }
    close(output[0])
    var status: Int32 = 0
    while waitpid(child, &status, 0) < 0 && errno == EINTR {}
    // WIFEXITED / WEXITSTATUS / WTERMSIG by hand (macros are not imported): a signal shows as 128 + its number.
    let signal = status & 0x7f
    return Outcome(status: signal == 0 ? (status >> 8) & 0xff : 128 + signal, stdout: bytes)
  }
}
