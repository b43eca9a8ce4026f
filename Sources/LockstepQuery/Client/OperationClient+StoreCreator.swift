import Foundation
import IssueReporting

extension OperationClient {
    /// The defaults every store of a client runs with: retries, backoff, delays, and what
    /// triggers automatic fetches. Start from ``default(retryLimit:backoff:delayer:queryEnableAutomaticFetchingCondition:networkObserver:focusCondition:)``
    /// or ``defaultTesting`` and change what differs.
    ///
    /// ```swift
    /// var creator = OperationClient.StoreCreator.defaultTesting
    /// creator.retryLimit = 2
    /// creator.backoff = .constant(.seconds(1))
    /// let client = OperationClient(storeCreator: creator, clock: clock)
    /// ```
    public struct StoreCreator: Sendable {
        /// How many times a failed run is retried. Never negative.
        public var retryLimit: Int
        /// The wait before each retry, or `nil` for exponential backoff from one second.
        public var backoff: OperationBackoffFunction?
        /// How waits happen, or `nil` to sleep on the client's clock.
        public var delayer: OperationDelayer?
        /// Whether queries fetch on their own: when a subscriber arrives while the value is stale,
        /// on invalidation, reconnection and focus. Explicit fetches always run.
        public var queryEnableAutomaticFetchingCondition: FetchCondition
        /// What says the network came back, or `nil` for no refetch on reconnection.
        public var networkObserver: (any NetworkObserver)?
        /// What says the app is active, or `nil` for no refetch on focus.
        public var focusCondition: FetchCondition?

        /// The defaults for an app: three retries with exponential backoff on the client's clock,
        /// automatic fetching, and refetching on reconnection and focus with the platform's
        /// observers (``DefaultObservers``).
        ///
        /// A negative `retryLimit` is reported as an issue and taken as 0.
        public static func `default`(
            retryLimit: Int = 3,
            backoff: OperationBackoffFunction? = nil,
            delayer: OperationDelayer? = nil,
            queryEnableAutomaticFetchingCondition: FetchCondition = .always(true),
            networkObserver: (any NetworkObserver)? = DefaultObservers.networkObserver,
            focusCondition: FetchCondition? = DefaultObservers.focusCondition
        ) -> StoreCreator {
            var limit = retryLimit
            if limit < 0 {
                reportIssue("retryLimit must not be negative; got \(retryLimit), using 0.")
                limit = 0
            }
            return StoreCreator(
                retryLimit: limit,
                backoff: backoff,
                delayer: delayer,
                queryEnableAutomaticFetchingCondition: queryEnableAutomaticFetchingCondition,
                networkObserver: networkObserver,
                focusCondition: focusCondition)
        }

        /// The defaults under a test runner: no retries, no backoff, no delays, no network or
        /// focus refetching; automatic fetching stays on.
        public static var defaultTesting: StoreCreator {
            .default(
                retryLimit: 0,
                backoff: .noBackoff,
                delayer: .noDelay,
                queryEnableAutomaticFetchingCondition: .always(true),
                networkObserver: nil,
                focusCondition: nil)
        }
    }
}
