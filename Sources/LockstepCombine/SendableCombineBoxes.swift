import Lockstep

/// A Combine subject, shared by the task that feeds it and the pipeline that subscribes to it.
///
/// Safe to send: Combine's subjects (and OpenCombine's) guard their state with a lock, and may be
/// sent values from any thread; here only one task sends, one value at a time.
struct SubjectBox<Wrapped: Subject>: @unchecked Sendable {
    let subject: Wrapped

    init(_ subject: Wrapped) {
        self.subject = subject
    }
}

/// A Combine cancellable or subscription, to cancel from any task.
///
/// Safe to send: the box only calls `cancel()`, which Combine's (and OpenCombine's) cancellables
/// and subscriptions accept from any thread, guarding their state with a lock.
struct Cancellation: @unchecked Sendable {
    private let cancellable: any Cancellable

    init(_ cancellable: any Cancellable) {
        self.cancellable = cancellable
    }

    func cancel() {
        cancellable.cancel()
    }
}
