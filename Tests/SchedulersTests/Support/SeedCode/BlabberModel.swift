// The production code of the Blabber chat app as Kodeco's video episode "Unit Testing Tools"
// tests it (from Marin Todorov's book "Modern Concurrency in Swift"), in the shape the
// episode tests: the model counts down with plain one-second `Task.sleep`s and posts each
// step to the chat server. No sleep or scheduler is injected; only the server is (the article
// stubs it with a URLProtocol).

/// Where the model posts what it says: the app's HTTP client in the article.
protocol ChatServer: Sendable {
  func post(_ message: String) async throws
}

@MainActor
final class BlabberModel {
  private let server: any ChatServer

  init(server: any ChatServer) { self.server = server }

  /// Says "3...", "2...", "1..." a second apart, then the message.
  func countdown(to message: String) async throws {
    guard !message.isEmpty else { return }
    let counter = AsyncStream<String> { continuation in
      Task {
        for count in [3, 2, 1] {
          continuation.yield("\(count)...")
          try await Task.sleep(for: .seconds(1))
        }
        continuation.yield("🎉 " + message)
        continuation.finish()
      }
    }
    for await text in counter {
      try await say(text)
    }
  }

  func say(_ text: String) async throws {
    try await server.post(text)
  }
}

/// The test's server: what the model posted, as a stream (the article's
/// `TestURLProtocol.requests`).
final class ChatServerStub: ChatServer {
  let requests: AsyncStream<String>
  private let continuation: AsyncStream<String>.Continuation

  init() { (requests, continuation) = AsyncStream.makeStream() }

  func post(_ message: String) async throws { continuation.yield(message) }
}
