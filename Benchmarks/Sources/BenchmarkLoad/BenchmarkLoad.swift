// The load of the "loaded" rows, shared by every benchmark that has them, so that "loaded"
// means the same thing in each table: one process per core, spinning.

import Foundation

/// Starts one spinning process per core, keeping every core busy until `stopLoad(_:)`.
///
/// ```swift
/// let spinners = startLoad()
/// defer { stopLoad(spinners) }
/// ```
public func startLoad() -> [Process] {
  (0..<ProcessInfo.processInfo.activeProcessorCount).compactMap { _ in
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/sh")
    process.arguments = ["-c", "while :; do :; done"]
    return (try? process.run()).map { process }
  }
}

/// Kills the spinners `startLoad()` started and waits for them: `SIGKILL`, because
/// `terminate()` left them running on Linux.
public func stopLoad(_ spinners: [Process]) {
  for spinner in spinners where spinner.isRunning {
    kill(spinner.processIdentifier, SIGKILL)
    spinner.waitUntilExit()
  }
}
