extension Dictionary {
    /// Calls `body` on each value in place: no value is copied out and back, so mutating one
    /// (appending to a queue it holds) does not copy its storage.
    package mutating func updateEachValue(_ body: (inout Value) throws -> Void) rethrows {
        var index = values.startIndex
        while index != values.endIndex {
            try body(&values[index])
            values.formIndex(after: &index)
        }
    }
}
