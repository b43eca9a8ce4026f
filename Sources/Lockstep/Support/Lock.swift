#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Android)
    import Android
#endif

/// A value guarded by a pthread mutex: the lock every Lockstep module uses.
///
/// It has `Synchronization.Mutex`'s shape and rules (`withLock`, `sending` in and out), but it
/// locks through `pthread_mutex_lock`, which Thread Sanitizer intercepts. `Mutex` on Linux locks
/// with raw futex calls that TSan cannot see, so every access under it is reported as a race and
/// real races hide among the false ones.
// Why the unchecked Sendable conformance is safe: `value` is read and written only inside
// `withLock`, between pthread_mutex_lock and pthread_mutex_unlock on `mutex`, so no two threads
// touch it at once.
// Values cross into and out of the lock only as `sending`, the same rule that makes
// `Synchronization.Mutex` Sendable for any value, so no non-Sendable state is shared.
package final class Lock<Value: ~Copyable>: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let value: UnsafeMutablePointer<Value>

    /// Creates a lock guarding `initialValue`.
    package init(_ initialValue: consuming sending Value) {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
        value = .allocate(capacity: 1)
        value.initialize(to: initialValue)
    }

    deinit {
        value.deinitialize(count: 1)
        value.deallocate()
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    /// Runs `body` with exclusive access to the value.
    @inlinable
    package func withLock<Result: ~Copyable, E: Error>(
        _ body: (inout sending Value) throws(E) -> sending Result
    ) throws(E) -> sending Result {
        lock()
        defer { unlock() }
        return try body(&pointer.pointee)
    }

    @usableFromInline
    var pointer: UnsafeMutablePointer<Value> { value }

    @usableFromInline
    func lock() {
        pthread_mutex_lock(mutex)
    }

    @usableFromInline
    func unlock() {
        pthread_mutex_unlock(mutex)
    }
}

/// A number that tells the calling thread from every other thread running now: what a lock
/// compares to see that the thread that holds it is asking again.
func currentThreadIdentity() -> UInt {
    #if canImport(Darwin)
        UInt(bitPattern: pthread_self())
    #else
        UInt(pthread_self())
    #endif
}
