/// Why an ``ActionRecorder`` lost actions it could not mark in its log; read it from
/// ``ActionRecorder/failure`` or catch it from ``ActionRecorder/finish()``.
///
/// ```swift
/// do {
///   try await recorder.finish()
/// } catch ActionRecorderError.sinkFailed(let error) {
///   print("the session log is incomplete: \(error)")
/// } catch {
///   print(error)
/// }
/// ```
public enum ActionRecorderError: Error, CustomStringConvertible {
    /// The sink threw: the actions of that write are lost, and the log may lack the line that
    /// counts them.
    case sinkFailed(any Error)
    /// The header (with the initial state) alone does not fit in `maxBytes`: nothing is written.
    case headerExceedsMaxBytes(headerBytes: Int, maxBytes: Int)
    /// The initial state does not encode (say, a `Double.nan`): nothing is written.
    case headerNotEncodable(any Error)

    public var description: String {
        switch self {
        case .sinkFailed(let error):
            "the action log could not be written: \(error)"
        case .headerExceedsMaxBytes(let headerBytes, let maxBytes):
            "the action log's header needs \(headerBytes) bytes and room for a dropped-count line, more than maxBytes (\(maxBytes))"
        case .headerNotEncodable(let error):
            "the action log's initial state does not encode: \(error)"
        }
    }
}
