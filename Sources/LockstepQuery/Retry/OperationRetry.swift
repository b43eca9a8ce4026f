import Foundation

/// Where a run that is retrying stands: how many of its attempts failed, the error of the last
/// one, and when the next attempt runs.
///
/// A store's state holds it in ``OperationState/retry`` from the moment an attempt fails and a
/// retry is scheduled until the run ends: it succeeds, fails for good or is cancelled. Until then
/// the state's ``OperationState/error`` keeps the error of the previous run, if any, so a screen
/// tells "retrying" from "failed":
///
/// ```swift
/// func retryLine(_ retry: OperationRetry<any Error>) -> String {
///   retry.isWaiting
///     ? "Retrying in \(retry.delay.components.seconds) s…"
///     : "Retrying (attempt \(retry.nextAttempt) of \(retry.retryLimit + 1))…"
/// }
/// ```
///
/// Attempts are counted from 1: the first attempt of a run is attempt 1, the first retry is
/// attempt 2. ``failedAttempts`` is how many have failed so far, so ``nextAttempt`` is one more.
public struct OperationRetry<Failure: Error>: Sendable {
    /// How many attempts of the run have failed: 1 after the first attempt failed.
    ///
    /// It is also the ``OperationContext/retryIndex`` of the next attempt, and the index its wait
    /// was computed with: `backoff(failedAttempts)`.
    public let failedAttempts: Int
    /// The most retries the run makes after its first attempt: its
    /// ``OperationContext/retryLimit``. The run makes at most `retryLimit + 1` attempts.
    public let retryLimit: Int
    /// The error the last failed attempt threw.
    public let error: Failure
    /// How long the run waits before its next attempt: the context's
    /// ``OperationContext/backoff`` for ``failedAttempts``.
    public let delay: Duration
    /// When the last attempt failed, by the client's date source.
    public let failureDate: Date
    /// Whether the run is still waiting before its next attempt; `false` once that attempt has
    /// started.
    public internal(set) var isWaiting: Bool

    /// A retry scheduled after `failedAttempts` failed attempts, the last of which threw `error`
    /// at `failureDate`, to run after `delay`. The store makes these; a test of a state can too.
    ///
    /// ```swift
    /// let retry = OperationRetry<any Error>(
    ///   failedAttempts: 1, retryLimit: 3, error: URLError(.timedOut), delay: .seconds(2),
    ///   failureDate: .now)
    /// ```
    public init(
        failedAttempts: Int, retryLimit: Int, error: Failure, delay: Duration, failureDate: Date,
        isWaiting: Bool = true
    ) {
        self.failedAttempts = failedAttempts
        self.retryLimit = retryLimit
        self.error = error
        self.delay = delay
        self.failureDate = failureDate
        self.isWaiting = isWaiting
    }

    /// The number of the attempt that runs next, counted from 1: 2 after the first attempt
    /// failed.
    public var nextAttempt: Int {
        failedAttempts + 1
    }

    /// How many retries the run has left after the next attempt.
    public var remainingRetries: Int {
        max(retryLimit - failedAttempts, 0)
    }

    /// When the next attempt runs, by the client's date source: ``failureDate`` plus ``delay``.
    ///
    /// ```swift
    /// Text(retry.nextAttemptDate, style: .relative)   // "in 2 sec"
    /// ```
    public var nextAttemptDate: Date {
        let (seconds, attoseconds) = delay.components
        return failureDate.addingTimeInterval(Double(seconds) + Double(attoseconds) / 1e18)
    }
}

extension OperationRetry: Equatable where Failure: Equatable {}
