/// A shared box's count of past values, seen without its type.
protocol SharedHistoryCounting {
    /// The moments of the past values kept for test stores' assertions, oldest first.
    var historyVersions: [UInt64] { get }
}

extension SharedBox: SharedHistoryCounting {
    var historyVersions: [UInt64] { contents.withLock { $0.history.map(\.version) } }
}

extension Shared {
    /// The moments of the past values the box behind this value keeps for test stores'
    /// assertions, oldest first: for the suite's check that a box lets go of what no test store
    /// can read any more.
    package var keptHistoryVersions: [UInt64] {
        (reference.root as? any SharedHistoryCounting)?.historyVersions ?? []
    }
}
