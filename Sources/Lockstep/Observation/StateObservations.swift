import Observation

/// The parts of a store's state that someone observed through a key path, so that a reduction
/// notifies the observers of each part only when that part changed.
///
/// Reading `store.counter` registers, through ``access(_:in:subject:registrar:)``, an observation
/// of the store key path that stands for `\State.counter`, and remembers the value read. After
/// each reduction, ``notifyChanges(in:subject:registrar:)`` compares each remembered part with the
/// new state: an `Equatable` part notifies its observers only when it differs, any other part on
/// every reduction. Parts nobody ever read cost nothing.
///
/// Store key paths are made by appending the state key path to `root` (a key path from the store
/// to its state), once per part; `ObservationRegistrar` needs a key path of the subject's type.
@usableFromInline
@MainActor
package final class StateObservations<Subject: Observable & AnyObject, State> {
    /// Whether no part is observed yet. Kept as a stored flag, first in the layout, and read
    /// inline by the store's dispatch: reading `list.isEmpty` instead went through this
    /// unspecialized generic class, which builds the metadata of an array of a constrained
    /// existential on every call (about 1,100 instructions a dispatch, half of a no-middleware
    /// dispatch, counted with callgrind).
    @usableFromInline
    package private(set) var hasNoParts = true
    private let root: KeyPath<Subject, State>
    private var parts: [AnyKeyPath: any ObservedPart<Subject, State>] = [:]
    private var list: [any ObservedPart<Subject, State>] = []

    /// Creates a registry for `root`, the key path from the subject to its state.
    package init(root: KeyPath<Subject, State>) {
        self.root = root
    }

    /// Whether any part is observed: a reduction with none to check skips the comparison.
    @inlinable
    package var isEmpty: Bool { hasNoParts }

    /// Registers an observation of the part of `state` at `keyPath`.
    package func access<Value>(
        _ keyPath: KeyPath<State, Value>,
        in state: State,
        subject: Subject,
        registrar: ObservationRegistrar,
        isEqual: ((Value, Value) -> Bool)?
    ) {
        if let part = parts[keyPath] {
            part.registerAccess(subject: subject, registrar: registrar)
            return
        }
        let part = TypedPart<Subject, State, Value>(
            statePath: keyPath,
            subjectPath: root.appending(path: keyPath),
            value: state[keyPath: keyPath],
            isEqual: isEqual ?? dynamicEquality(Value.self)
        )
        parts[keyPath] = part
        list.append(part)
        hasNoParts = false
        part.registerAccess(subject: subject, registrar: registrar)
    }

    /// Notifies the observers of every part that changed in `state`, and returns whether a part
    /// read since its last notification was among them: only then may an observer (a view) be
    /// waiting to render the change.
    @usableFromInline
    @discardableResult
    package func notifyChanges(in state: State, subject: Subject, registrar: ObservationRegistrar) -> Bool {
        var notifiedReader = false
        for part in list where part.notifyIfChanged(in: state, subject: subject, registrar: registrar) {
            notifiedReader = true
        }
        return notifiedReader
    }
}

/// One observed part of the state, with its type erased.
@MainActor
protocol ObservedPart<Subject, State>: AnyObject {
    associatedtype Subject: Observable & AnyObject
    associatedtype State
    /// Notifies the part's observers when it changed in `state` (or always, when it cannot be
    /// compared), and returns whether it did so for a part read since its last notification.
    func notifyIfChanged(in state: State, subject: Subject, registrar: ObservationRegistrar) -> Bool
    /// Registers an observation of the part in the current tracking scope.
    func registerAccess(subject: Subject, registrar: ObservationRegistrar)
}

@MainActor
final class TypedPart<Subject: Observable & AnyObject, State, Value>: ObservedPart {
    let statePath: KeyPath<State, Value>
    private let typedSubjectPath: KeyPath<Subject, Value>
    /// The value observers saw last; kept only for a part that can be compared.
    private var value: Value?
    private let isEqual: ((Value, Value) -> Bool)?
    /// Whether the part was read through the registrar since its observers were last notified.
    /// An observation registered by that read lives until the part changes, so the flag is
    /// cleared only by a notification. A read outside any tracking scope sets it too: the store
    /// cannot tell the two apart, and the cost is one yield more.
    private var isRead = false

    init(statePath: KeyPath<State, Value>, subjectPath: KeyPath<Subject, Value>, value: Value,
         isEqual: ((Value, Value) -> Bool)?) {
        self.statePath = statePath
        self.typedSubjectPath = subjectPath
        self.isEqual = isEqual
        self.value = isEqual == nil ? nil : value
    }

    func registerAccess(subject: Subject, registrar: ObservationRegistrar) {
        isRead = true
        registrar.access(subject, keyPath: typedSubjectPath)
    }

    func notifyIfChanged(in state: State, subject: Subject, registrar: ObservationRegistrar) -> Bool {
        if let isEqual {
            let newValue = state[keyPath: statePath]
            if let value, isEqual(value, newValue) { return false }
            value = newValue
        }
        registrar.willSet(subject, keyPath: typedSubjectPath)
        registrar.didSet(subject, keyPath: typedSubjectPath)
        defer { isRead = false }
        return isRead
    }
}

/// The `==` of `Value` when it is `Equatable`, found at run time: a part whose type is known
/// only generically (a child store's slice) still notifies only when it changed.
func dynamicEquality<Value>(_ type: Value.Type) -> ((Value, Value) -> Bool)? {
    guard let equatable = type as? any Equatable.Type else { return nil }
    func compare<E: Equatable>(_: E.Type) -> (Value, Value) -> Bool {
        { lhs, rhs in (lhs as? E) == (rhs as? E) }
    }
    return compare(equatable)
}
