import Testing

/// The async user stories under deterministic execution. CI repeats every test in this suite a
/// thousand times (`--filter AsyncStories`): a story that passes once but not always is a bug.
@Suite("Async user stories") enum AsyncStories {}

/// The marble tables of the time-based operators, repeated in CI with the async stories
/// (`--filter OperatorMarbleTables`).
@Suite("Operator marble tables") enum OperatorMarbleTables {}
