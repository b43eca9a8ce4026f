/// The id of one element of a ``StackState``: each element pushed on a stack gets a new one.
///
/// Ids are numbers counted by the stack, from 0, so they are the same in every run, and in a
/// test's expected state. A test writes one as a literal:
///
/// ```swift
/// await store.send(.path(.popFrom(id: 0))) { $0.path.removeAll() }
/// ```
public struct StackElementID: Hashable, Comparable, Sendable, ExpressibleByIntegerLiteral,
    CustomStringConvertible
{
    /// The number of the element in the order of pushes.
    public let rawValue: Int

    /// The id with the number `rawValue`.
    ///
    /// - Parameter rawValue: The number of the element in the order of pushes.
    public init(rawValue: Int) {
        self.rawValue = rawValue
    }

    /// The id with the number `value`, written as a literal: `0`.
    ///
    /// - Parameter value: The number of the element in the order of pushes.
    public init(integerLiteral value: Int) {
        self.rawValue = value
    }

    /// Whether `lhs` was pushed before `rhs` on the same stack.
    public static func < (lhs: Self, rhs: Self) -> Bool {
        lhs.rawValue < rhs.rawValue
    }

    /// The number, prefixed with `#`: `#0`.
    public var description: String { "#\(rawValue)" }
}

/// The screens of a navigation stack, as state: an ordered collection whose every element has a
/// ``StackElementID`` of its own.
///
/// Pushing a screen appends its state; the stack gives it the next id, which no other element of
/// the stack had before, so that an action for a screen that was popped never reaches a newer
/// screen. An app keeps the stack in its state and changes it through ``StackAction``s, with
/// ``forEachReducer(_:state:action:fileID:line:)-(InPlaceReducer<Element,ElementAction>,_,_,_,_)``:
///
/// ```swift
/// struct AppState: Equatable, Sendable {
///     var path = StackState<BookDetailState>()
/// }
///
/// enum AppAction: Equatable, Sendable {
///     case path(StackAction<BookDetailState, BookDetailAction>)
/// }
/// ```
///
/// The collection is the elements in the order they were pushed, the root's first child first.
/// It is mutable (`path[0].title = "Dune"` keeps the element's id) and range-replaceable: every
/// element it inserts is pushed, with a new id. ``ids`` lists the ids, and ``subscript(id:)``
/// finds an element by its id.
///
/// Two stacks are equal when they hold equal elements under the same ids; the id the next push
/// will get is not compared. Emptying a stack with ``removeAll(keepingCapacity:)`` keeps
/// counting, while assigning a new `StackState()` starts again from 0.
public struct StackState<Element> {
    /// The elements, each with its id, in the order of the stack.
    private var entries: [(id: StackElementID, element: Element)]
    /// The number of the next id.
    private var nextID: Int

    /// An empty stack.
    public init() {
        entries = []
        nextID = 0
    }

    /// A stack of `elements`, pushed in order: the first gets the id 0.
    ///
    /// - Parameter elements: The elements, the bottom of the stack first.
    public init(_ elements: some Sequence<Element>) {
        self.init()
        append(contentsOf: elements)
    }

    /// The ids of the elements, in the order of the stack.
    ///
    /// A SwiftUI `NavigationStack` takes them as its path (see
    /// ``StoreBinding/init(_:stack:action:)``).
    public var ids: [StackElementID] { entries.map(\.id) }

    /// The element with `id`, or `nil` when none has it.
    ///
    /// Setting an element changes it in place and keeps its id; setting `nil` removes it (and
    /// not the elements above it). Setting an element for an id the stack does not hold pushes
    /// it with that id, in the order of ids, as a test's expected state writes a push:
    ///
    /// ```swift
    /// await store.send(.path(.push(BookDetailState(book: dune)))) {
    ///     $0.path[id: 0] = BookDetailState(book: dune)
    /// }
    /// ```
    ///
    /// - Parameter id: The id of the element.
    public subscript(id id: StackElementID) -> Element? {
        get {
            entries.first { $0.id == id }?.element
        }
        set {
            guard let index = entries.firstIndex(where: { $0.id == id }) else {
                guard let newValue else { return }
                let position = entries.firstIndex { $0.id > id } ?? entries.endIndex
                entries.insert((id, newValue), at: position)
                nextID = Swift.max(nextID, id.rawValue + 1)
                return
            }
            if let newValue {
                entries[index].element = newValue
            } else {
                entries.remove(at: index)
            }
        }
    }

    /// Removes the element with `id` and every element above it, as going back to the screen
    /// below it does.
    ///
    /// - Parameter id: The id of the lowest element to remove.
    /// - Returns: Whether the stack held an element with `id`.
    @discardableResult
    public mutating func pop(from id: StackElementID) -> Bool {
        guard let index = entries.firstIndex(where: { $0.id == id }) else { return false }
        entries.removeSubrange(index...)
        return true
    }

    /// Removes every element above the element with `id`, which stays on top.
    ///
    /// - Parameter id: The id of the element to go back to.
    /// - Returns: Whether the stack held an element with `id`.
    @discardableResult
    public mutating func pop(to id: StackElementID) -> Bool {
        guard let index = entries.firstIndex(where: { $0.id == id }) else { return false }
        entries.removeSubrange((index + 1)...)
        return true
    }

    /// Removes every element; the next element pushed still gets a new id.
    ///
    /// - Parameter keepCapacity: Whether to keep the storage for as many elements.
    public mutating func removeAll(keepingCapacity keepCapacity: Bool = false) {
        entries.removeAll(keepingCapacity: keepCapacity)
    }
}

extension StackState: RandomAccessCollection, MutableCollection, RangeReplaceableCollection {
    /// The position of the bottom element.
    public var startIndex: Int { entries.startIndex }

    /// The position past the top element.
    public var endIndex: Int { entries.endIndex }

    /// The element at `position`; setting it keeps its id.
    ///
    /// - Parameter position: The position of the element, from 0 at the bottom of the stack.
    public subscript(position: Int) -> Element {
        get { entries[position].element }
        set { entries[position].element = newValue }
    }

    /// Replaces the elements in `subrange` with `newElements`, each of which is pushed with a
    /// new id.
    ///
    /// - Parameters:
    ///   - subrange: The positions of the elements to remove.
    ///   - newElements: The elements to push in their place.
    public mutating func replaceSubrange<C: Collection<Element>>(_ subrange: Range<Int>, with newElements: C) {
        var pushed: [(id: StackElementID, element: Element)] = []
        pushed.reserveCapacity(newElements.count)
        for element in newElements {
            pushed.append((StackElementID(rawValue: nextID), element))
            nextID += 1
        }
        entries.replaceSubrange(subrange, with: pushed)
    }
}

extension StackState: ExpressibleByArrayLiteral {
    /// A stack of the literal's elements, pushed in order.
    ///
    /// - Parameter elements: The elements, the bottom of the stack first.
    public init(arrayLiteral elements: Element...) {
        self.init(elements)
    }
}

extension StackState: Equatable where Element: Equatable {
    /// Whether both stacks hold equal elements under the same ids, in the same order.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.entries.count == rhs.entries.count
            && zip(lhs.entries, rhs.entries).allSatisfy { $0.id == $1.id && $0.element == $1.element }
    }
}

extension StackState: Hashable where Element: Hashable {
    /// Hashes the ids and the elements.
    ///
    /// - Parameter hasher: The hasher to feed.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(entries.count)
        for entry in entries {
            hasher.combine(entry.id)
            hasher.combine(entry.element)
        }
    }
}

extension StackState: Sendable where Element: Sendable {}

extension StackState: CustomReflectable {
    /// The elements labeled with their ids, as a test failure's difference shows them.
    public var customMirror: Mirror {
        Mirror(
            self, children: entries.map { (label: $0.id.description as String?, value: $0.element as Any) },
            displayStyle: .struct)
    }
}

extension StackState: CustomStringConvertible {
    /// The elements with their ids: `[#0: …, #1: …]`.
    public var description: String {
        "[" + entries.map { "\($0.id): \($0.element)" }.joined(separator: ", ") + "]"
    }
}

/// The actions of a navigation stack whose screens are a ``StackState``: push a screen, pop back
/// to below a screen, and an action of one screen.
///
/// The app's action has a case that carries them, and a property that extracts them:
///
/// ```swift
/// enum AppAction: Equatable, Sendable {
///     case path(StackAction<BookDetailState, BookDetailAction>)
///
///     var path: StackAction<BookDetailState, BookDetailAction>? {
///         if case .path(let action) = self { action } else { nil }
///     }
/// }
/// ```
///
/// ``forEachReducer(_:state:action:fileID:line:)-(InPlaceReducer<Element,ElementAction>,_,_,_,_)``
/// applies pushes and pops to the stack, and runs the screen's reducer for its actions.
public enum StackAction<Element, ElementAction> {
    /// Pushes a screen with this state on top of the stack; the stack gives it a new id.
    case push(Element)
    /// Pops the screen with this id and every screen above it.
    case popFrom(id: StackElementID)
    /// An action of the screen with this id.
    case element(id: StackElementID, action: ElementAction)

    /// The id and the action of an ``element(id:action:)`` action, or `nil` for a push or a pop.
    public var element: (id: StackElementID, action: ElementAction)? {
        if case .element(let id, let action) = self { (id, action) } else { nil }
    }
}

extension StackAction: Equatable where Element: Equatable, ElementAction: Equatable {}
extension StackAction: Hashable where Element: Hashable, ElementAction: Hashable {}
extension StackAction: Sendable where Element: Sendable, ElementAction: Sendable {}
