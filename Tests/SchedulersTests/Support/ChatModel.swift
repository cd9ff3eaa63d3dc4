import Dispatch
import Schedulers

/// A chat model that counts down 3, 2, 1 with one-second pauses before sending a message:
/// the countdown story, also used by the trait and XCTest tests of deterministic execution.
@MainActor
final class ChatModel {
  private(set) var countdown: Int?
  private(set) var sentMessages: [String] = []
  private let scheduler: AnySchedulerOf<DispatchQueue>

  init(scheduler: AnySchedulerOf<DispatchQueue>) { self.scheduler = scheduler }

  func sendButtonTapped(_ message: String) {
    Task {
      for count in [3, 2, 1] {
        countdown = count
        try await scheduler.sleep(for: .seconds(1))
      }
      countdown = nil
      sentMessages.append(message)
    }
  }
}
