/// Where a ``Shared`` value lives: a box of its own, or a part of another shared value.
///
/// Reads and writes take a ``SharedReading``, which is `nil` everywhere but in a test store's
/// assertion, where it reads the value as it was at a past moment or as the assertion set it.
protocol SharedReference<Value>: AnyObject, Sendable {
    associatedtype Value: Sendable
    /// The value, as `reading` sees it (now, when `reading` is `nil`).
    func value(in reading: SharedReading?) -> Value
    /// Runs `body` on the value, as one step: other writers wait.
    func modify<Result>(in reading: SharedReading?, _ body: (inout Value) throws -> Result) rethrows -> Result
    /// The box at the root of the reference, which identifies the value it shares.
    var root: any SharedRoot { get }
}

/// The root box of a shared value, seen without its type: its identity, and its past values.
package protocol SharedRoot: AnyObject, Sendable {}

import Observation
import IssueReporting
import Synchronization

/// A shared value of its own. It is `Observable`: a view that reads the value is updated when
/// it is written, by a reducer, a middleware or another store alike.
final class SharedBox<Value: Sendable>: SharedReference, SharedRoot, Observable {
    struct Contents {
        var value: Value
        /// The values the box held, by the ``SharedVersions`` count when each was written: kept
        /// only while a test store records, back to the oldest moment one may still read, so
        /// that its assertions read the value as it was right after each action.
        var history: [(version: UInt64, value: Value)] = []
        /// Whether `history` holds anything: a stored flag, since an app's write checks it, and
        /// the array's own `isEmpty` goes through generic code there (metadata look-ups).
        var hasHistory = false

        /// Lets go of the values no test store can read any more: those before the one the box
        /// held at `floor`.
        mutating func forget(before floor: UInt64) {
            var held = 0
            while held + 1 < history.count, history[held + 1].version <= floor {
                held += 1
            }
            if held > 0 { history.removeFirst(held) }
        }

        /// The value the box held when the count of writes was `version`.
        func value(at version: UInt64) -> Value {
            guard let last = history.last else { return value }
            if last.version <= version { return last.value }
            var held = history[0].value
            for entry in history {
                if entry.version > version { break }
                held = entry.value
            }
            return held
        }
    }

    let contents: Lock<Contents>
    private let registrar = ObservationRegistrar()
    /// The thread inside ``modify(in:_:)``'s closure, or 0: the closure's own reads of the value
    /// (`count.withLock { $0 += count.wrappedValue }`) must not wait for the lock it holds.
    private let modifyingThread = Atomic<UInt>(0)
    /// The value as it was when the running ``modify(in:_:)`` began, for that closure's own reads.
    // Why unsafe is safe here: only the thread recorded in `modifyingThread` touches it, while it
    // holds `contents`' lock (set right after taking the lock, cleared before letting it go, and
    // read only by a thread that finds its own identity in `modifyingThread`), so no two threads
    // ever access it at once.
    nonisolated(unsafe) private var valueBeforeModify: Value?

    /// Told of each value written, in the order of the writes (inside the lock): a key's storage
    /// saves it.
    private let didWrite: (@Sendable (Value) -> Void)?

    /// The key path observers of the value register; it reads the value as it is now.
    var observedValue: Value { contents.withLock { $0.value } }
    /// `\.observedValue`, made once: a generic class's key path literal is instantiated anew at
    /// each use.
    private let observedPath: KeyPath<SharedBox, Value> & Sendable

    init(_ value: Value, didWrite: (@Sendable (Value) -> Void)? = nil) {
        contents = Lock(Contents(value: value))
        self.didWrite = didWrite
        observedPath = \SharedBox.observedValue
    }

    var root: any SharedRoot { self }

    func value(in reading: SharedReading?) -> Value {
        if let reading {
            if let written = reading.overlay?.value(of: self, as: Value.self) { return written }
            if let version = reading.version { return contents.withLock { $0.value(at: version) } as Value }
        }
        registrar.access(self, keyPath: observedPath)
        if let inProgress = valueInsideOwnModify() { return inProgress }
        return contents.withLock { $0.value }
    }

    /// The value as the running ``modify(in:_:)`` found it, when the caller is that call's own
    /// closure (the only thread that could ask while holding the lock); `nil` for any other.
    private func valueInsideOwnModify() -> Value? {
        guard modifyingThread.load(ordering: .acquiring) == currentThreadIdentity() else { return nil }
        return valueBeforeModify
    }

    func modify<Result>(in reading: SharedReading?, _ body: (inout Value) throws -> Result) rethrows -> Result {
        if let reading, let overlay = reading.overlay {
            // An assertion's write changes what the assertion expects, never the value.
            var value = value(in: reading)
            let result = try body(&value)
            overlay.set(value, of: self)
            return result
        }
        if var inProgress = valueInsideOwnModify() {
            // A write from inside the closure of this value's own withLock: the closure holds the
            // value, and taking the lock again would wait for ever. Reported, and not applied.
            reportIssue(
                "A shared \(Value.self) was changed inside its own withLock: the change is not "
                    + "applied, as the enclosing withLock writes the value back when its closure "
                    + "returns. Change the value the closure is given instead.")
            return try body(&inProgress)
        }
        registrar.willSet(self, keyPath: observedPath)
        defer { registrar.didSet(self, keyPath: observedPath) }
        return try contents.withLock { contents in
            let old = contents.value
            valueBeforeModify = old
            modifyingThread.store(currentThreadIdentity(), ordering: .releasing)
            defer {
                modifyingThread.store(0, ordering: .releasing)
                valueBeforeModify = nil
            }
            let result = try body(&contents.value)
            // Inside the lock, so that storage is told of the writes in the order they were made.
            didWrite?(contents.value)
            if let (version, floor) = SharedVersions.advance() {
                if !contents.hasHistory { contents.history.append((0, old)) }
                contents.history.append((version, contents.value))
                contents.forget(before: floor)
                contents.hasHistory = true
            } else if contents.hasHistory {
                contents.history = []
                contents.hasHistory = false
            }
            return result
        }
    }
}

/// A part of another shared value: `$syncUp.title`, `$syncUps[id: id]`.
final class SharedPart<Root: Sendable, Value: Sendable>: SharedReference {
    private let base: any SharedReference<Root>
    private let keyPath: WritableKeyPath<Root, Value> & Sendable

    init(_ base: any SharedReference<Root>, _ keyPath: WritableKeyPath<Root, Value> & Sendable) {
        self.base = base
        self.keyPath = keyPath
    }

    var root: any SharedRoot { base.root }

    func value(in reading: SharedReading?) -> Value {
        base.value(in: reading)[keyPath: keyPath]
    }

    func modify<Result>(in reading: SharedReading?, _ body: (inout Value) throws -> Result) rethrows -> Result {
        try base.modify(in: reading) { try body(&$0[keyPath: keyPath]) }
    }
}

/// A shared optional value seen as present: `Shared($syncUps[id: id])`. Once the value is gone
/// (the row removed), it reads as it was last seen, and writes to it are dropped.
final class SharedUnwrapped<Value: Sendable>: SharedReference {
    private let base: any SharedReference<Value?>
    private let lastSeen: Lock<Value>

    init?(_ base: any SharedReference<Value?>) {
        guard let value = base.value(in: SharedReading.inForce) else { return nil }
        self.base = base
        self.lastSeen = Lock(value)
    }

    var root: any SharedRoot { base.root }

    func value(in reading: SharedReading?) -> Value {
        if let value = base.value(in: reading) {
            // Only a read of the value as it is now is the last one seen: an assertion's reading
            // of a past step, or of what it expects, leaves it alone.
            if reading == nil { lastSeen.withLock { $0 = value } }
            return value
        }
        return lastSeen.withLock { $0 }
    }

    func modify<Result>(in reading: SharedReading?, _ body: (inout Value) throws -> Result) rethrows -> Result {
        try base.modify(in: reading) { optional in
            if var value = optional {
                let result = try body(&value)
                optional = value
                if reading == nil { lastSeen.withLock { $0 = value } }
                return result
            }
            var value = lastSeen.withLock { $0 }
            return try body(&value)
        }
    }
}
