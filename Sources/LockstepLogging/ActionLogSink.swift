import Foundation
import Lockstep

/// Where an ``ActionRecorder`` writes its JSON Lines: ``FileActionLogSink``,
/// ``MemoryActionLogSink``, or a type of the app's own, such as one that uploads.
///
/// ```swift
/// actor UploadingSink: ActionLogSink {
///   let uploader: LogUploader
///   init(uploader: LogUploader) { self.uploader = uploader }
///   func write(_ data: Data) async throws {
///     try await uploader.append(data)  // throws without appending any of data
///   }
/// }
/// let recorder = ActionRecorder<AppState, AppAction>(sink: UploadingSink(uploader: uploader))
/// ```
public protocol ActionLogSink: Sendable {
    /// Writes `data` (one or more whole lines, each ending in a newline) after what was written
    /// before.
    ///
    /// A write that throws should leave nothing of `data` behind (``FileActionLogSink`` cuts a
    /// partial write off), so that the recorder's next write starts on a fresh line.
    func write(_ data: Data) async throws
}

