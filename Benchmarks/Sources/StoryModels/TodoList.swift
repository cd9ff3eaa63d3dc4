/// The API of the to-do list story: an actor, as a network client is.
public actor TodoAPI {
  private var saved: [String] = []
  public init() {}
  public func save(_ title: String) -> [String] {
    saved.append(title)
    return saved
  }
}

/// A plain view model with no time in it at all: adding an item saves it through the API and
/// shows what the API answered. The most common test there is: call, await, check.
@MainActor public final class TodoListModel {
  public private(set) var items: [String] = []
  public private(set) var isSaving = false
  private let api: TodoAPI

  public init(api: TodoAPI) { self.api = api }

  public func add(_ title: String) async {
    isSaving = true
    items = await api.save(title)
    isSaving = false
  }
}

/// The to-do list's test: add two items, check the list and that nothing is saving.
@MainActor public func todoListTest(_ model: TodoListModel) async -> Bool {
  await model.add("Milk")
  await model.add("Eggs")
  return model.items == ["Milk", "Eggs"] && !model.isSaving
}
