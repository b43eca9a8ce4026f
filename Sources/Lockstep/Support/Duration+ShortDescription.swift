extension Duration {
    /// "300s", "1.5s", "250ms": a duration for the test toolkit's failure messages.
    package var shortDescription: String {
        let (seconds, attoseconds) = components
        if attoseconds == 0 { return "\(seconds)s" }
        let milliseconds = Double(seconds) * 1000 + Double(attoseconds) / 1e15
        if milliseconds < 1000, milliseconds == milliseconds.rounded() { return "\(Int(milliseconds))ms" }
        return "\(milliseconds / 1000)s"
    }
}
