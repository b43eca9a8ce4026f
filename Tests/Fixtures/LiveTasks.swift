import Lockstep

/// Counts the bodies (middleware, effect, query) that are running now, so that a test can prove
/// every one of them ended: a body calls `enter()` when it starts and `leave()` in a `defer`, and
/// the test awaits `waitUntilZero()`, which suspends on a continuation until the count is zero.
final class LiveTasks: Sendable {
    private struct State {
        var live = 0
        var started = 0
        var waiters: [CheckedContinuation<Void, Never>] = []
        var startWaiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []
    }

    private let state = Lock(State())

    /// The bodies running now.
    var count: Int { state.withLock { $0.live } }

    /// The bodies started so far, ended or not.
    var started: Int { state.withLock { $0.started } }

    func enter() {
        let ready = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.live += 1
            state.started += 1
            let started = state.started
            var ready: [CheckedContinuation<Void, Never>] = []
            state.startWaiters.removeAll { waiter in
                guard waiter.count <= started else { return false }
                ready.append(waiter.continuation)
                return true
            }
            return ready
        }
        for waiter in ready {
            waiter.resume()
        }
    }

    func leave() {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.live -= 1
            guard state.live == 0 else { return [] }
            defer { state.waiters.removeAll() }
            return state.waiters
        }
        for waiter in waiters {
            waiter.resume()
        }
    }

    /// Returns once `count` bodies in all have started.
    func waitUntilStarted(_ count: Int) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let resumeNow = state.withLock { state in
                if state.started >= count { return true }
                state.startWaiters.append((count, continuation))
                return false
            }
            if resumeNow {
                continuation.resume()
            }
        }
    }

    /// Returns once no body is running: at once if none is now.
    func waitUntilZero() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let resumeNow = state.withLock { state in
                if state.live == 0 { return true }
                state.waiters.append(continuation)
                return false
            }
            if resumeNow {
                continuation.resume()
            }
        }
    }
}

/// An `AsyncSequence` whose iteration counts as a live body of `live` from the moment its
/// iterator is made until the iterator is destroyed: an effect's pipeline wrapped in it is live
/// exactly as long as the store's effect task still holds the pipeline.
struct LiveSequence<Base: AsyncSequence>: AsyncSequence {
    typealias Element = Base.Element
    typealias Failure = Base.Failure

    let base: Base
    let live: LiveTasks

    /// Enters `live` when made, leaves it when destroyed.
    final class Token {
        let live: LiveTasks
        init(live: LiveTasks) {
            self.live = live
            live.enter()
        }
        deinit { live.leave() }
    }

    struct AsyncIterator: AsyncIteratorProtocol {
        var base: Base.AsyncIterator
        let token: Token

        mutating func next() async throws(Base.Failure) -> Base.Element? {
            try await base.next(isolation: nil)
        }

        mutating func next(isolation actor: isolated (any Actor)?) async throws(Base.Failure) -> Base.Element? {
            try await base.next(isolation: actor)
        }
    }

    func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(base: base.makeAsyncIterator(), token: Token(live: live))
    }
}

extension AsyncSequence {
    /// This sequence, counted in `live` while it is iterated.
    func live(in live: LiveTasks) -> LiveSequence<Self> {
        LiveSequence(base: self, live: live)
    }
}
