import Dispatch
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The deliveries of a POSIX signal, as an `AsyncSequence`: one element (the signal's number)
/// per delivered signal.
///
/// Each iterator listens with its own `DispatchSource.makeSignalSource` and stops listening
/// when its consumer is cancelled or the iterator goes away. The signal's default action is
/// replaced by `SIG_IGN` first, so a delivery does not end the process. A signal delivered
/// before an iterator is listening is lost: `onListening` runs once the source is installed,
/// so a caller can announce that it is ready (or a test can raise the signal) only then.
/// Listen to a signal with one iterator at a time: with libdispatch on Linux, cancelling one of
/// two sources of the same signal can lose deliveries to the other.
///
/// Deliveries, not sends, are counted: POSIX keeps at most one pending instance of a standard
/// signal, so signals sent while one is pending are merged into it by the kernel, before any
/// code of this process runs. A burst of 1,000 `kill -USR1` may yield a few dozen elements.
/// Nothing in user space can recover the merged ones; a sender that needs every event counted
/// waits for each to be seen (as the end-to-end test does) or uses another channel.
public struct SignalEvents: AsyncSequence, Sendable {
    public typealias Element = Int32
    public typealias Failure = Never

    /// The signal listened to, such as `SIGUSR1`.
    public let number: Int32
    private let onListening: @Sendable () -> Void

    public init(_ number: Int32, onListening: @escaping @Sendable () -> Void = {}) {
        self.number = number
        self.onListening = onListening
    }

    public func makeAsyncIterator() -> AsyncStream<Int32>.Iterator {
        let number = self.number
        let onListening = self.onListening
        let (stream, continuation) = AsyncStream.makeStream(of: Int32.self)
        _ = signal(number, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
        // The handlers hold the source until it is cancelled, which releases them.
        source.setEventHandler {
            for _ in 0..<source.data {
                continuation.yield(number)
            }
        }
        source.setRegistrationHandler(handler: onListening)
        let listening = Listening(source: source)
        continuation.onTermination = { _ in listening.stop() }
        source.resume()
        return stream.makeAsyncIterator()
    }
}

/// The dispatch source of one iterator, cancelled when its stream terminates.
private final class Listening: Sendable {
    nonisolated(unsafe) private let source: any DispatchSourceSignal

    init(source: any DispatchSourceSignal) {
        self.source = source
    }

    func stop() {
        source.cancel()
    }
}
