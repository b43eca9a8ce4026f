
/// The child tasks of a tracked task that waits for all of them (a task group of middlewares).
///
/// The last child to finish marks the parent running before it finishes itself, so that the
/// work monitor never sees a moment with nothing running while the parent is about to go on.
final class ChildTasks: Sendable {
    private let parent: any WorkUnit
    private let state: Lock<(pending: Int, parentWaits: Bool)>

    init(parent: any WorkUnit) {
        self.parent = parent
        self.state = Lock((0, false))
    }

    /// A new running child, tracked with the parent and counted until ``childFinished(_:)``.
    func makeChild() -> any WorkUnit {
        state.withLock { $0.pending += 1 }
        return parent.makeChild()
    }

    /// The parent is about to wait for its children: it stops counting as running, unless they
    /// have all finished already. The tracker is called outside the lock: the parent prepares to
    /// wait first, so that a child finishing at any moment after the decision resumes it.
    func parentWillWait() {
        parent.prepareToWait("waiting for the middlewares it started")
        let waits = state.withLock { state -> Bool in
            guard state.pending > 0 else { return false }
            state.parentWaits = true
            return true
        }
        if waits {
            parent.commitPark()
        } else {
            parent.resume()
        }
    }

    func childFinished(_ child: any WorkUnit) {
        let resumesParent = state.withLock { state -> Bool in
            state.pending -= 1
            return state.pending == 0 && state.parentWaits
        }
        if resumesParent {
            parent.resume()
        }
        child.finish()
    }
}
