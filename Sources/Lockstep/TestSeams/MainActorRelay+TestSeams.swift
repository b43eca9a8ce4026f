// What the suite reads of a relay to check its bound; production code never calls it.
extension MainActorRelay {
    /// The most values that have waited for the main actor at once.
    var highWaterMark: Int {
        queue.withLock { $0.highWaterMark }
    }
}
