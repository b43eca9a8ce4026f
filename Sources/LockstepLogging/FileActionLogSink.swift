import Foundation
import Lockstep

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Why a ``FileActionLogSink`` cannot record to a path.
///
/// ```swift
/// do {
///   let sink = try FileActionLogSink(url: sessionURL)
///   recorder = ActionRecorder<AppState, AppAction>(sink: sink)
/// } catch {
///   print(error)  // cannot record to /tmp/session.jsonl: it is a folder, not a regular file
/// }
/// ```
public struct FileActionLogSinkError: Error, Equatable, CustomStringConvertible {
    /// The path that was given.
    public let path: String
    /// Why it cannot be used, such as "it is a FIFO, not a regular file".
    public let reason: String

    /// Creates an error for `path`; the sink makes these, an app only catches them.
    package init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    public var description: String {
        "cannot record to \(path): \(reason)"
    }
}

/// A sink that writes to a regular file.
///
/// The file is created, or, when a regular file is there, emptied in place: a symbolic link is
/// followed and kept, and the file keeps its mode and owner. A FIFO, a device, a socket or a
/// folder is refused with ``FileActionLogSinkError``, untouched. A write that fails (a full
/// disk) is cut off where it started, so the file always ends with a whole line.
///
/// ```swift
/// let sessionURL = URL.documentsDirectory.appending(path: "session.jsonl")
/// let recorder = ActionRecorder<AppState, AppAction>(sink: try FileActionLogSink(url: sessionURL))
/// // … later, ActionLog<AppState, AppAction>(contentsOf: sessionURL) reads it back.
/// ```
public final class FileActionLogSink: ActionLogSink {
    /// The open file and how many bytes were written to it; only the recorder's writer writes.
    private let file: Lock<(descriptor: Int32, offset: Int)>
    private let path: String

    /// Opens the file at `url` for recording, creating it with mode 0644 (less the umask) when
    /// there is none, and empties it.
    ///
    /// - Throws: ``FileActionLogSinkError`` when the path is not a regular file (after
    ///   following symbolic links) or cannot be opened.
    public init(url: URL) throws {
        let path = url.path
        var status = stat()
        if stat(path, &status) == 0, !Self.isRegular(status) {
            throw FileActionLogSinkError(path: path, reason: "it is \(Self.kind(status)), not a regular file")
        }
        // O_NONBLOCK: a FIFO created since the check must not block the open.
        let descriptor = open(path, O_WRONLY | O_CREAT | O_NONBLOCK | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw FileActionLogSinkError(path: path, reason: String(cString: strerror(errno)))
        }
        guard fstat(descriptor, &status) == 0, Self.isRegular(status) else {
            close(descriptor)
            throw FileActionLogSinkError(path: path, reason: "it is \(Self.kind(status)), not a regular file")
        }
        guard ftruncate(descriptor, 0) == 0 else {
            let reason = String(cString: strerror(errno))
            close(descriptor)
            throw FileActionLogSinkError(path: path, reason: reason)
        }
        file = Lock((descriptor, 0))
        self.path = path
    }

    deinit {
        file.withLock { _ = close($0.descriptor) }
    }

    public func write(_ data: Data) async throws {
        try file.withLock { [path] file throws(FileActionLogSinkError) in
            var written = 0
            var failure: Int32 = 0
            data.withUnsafeBytes { bytes in
                while written < bytes.count {
                    let result = pwrite(
                        file.descriptor, bytes.baseAddress! + written, bytes.count - written,
                        off_t(file.offset + written))
                    if result < 0 {
                        if errno == EINTR { continue }
                        failure = errno
                        return
                    }
                    written += result
                }
            }
            guard failure == 0 else {
                // Leaves the file ending with the last whole write, so the next starts a line.
                _ = ftruncate(file.descriptor, off_t(file.offset))
                throw FileActionLogSinkError(path: path, reason: String(cString: strerror(failure)))
            }
            file.offset += written
        }
    }

    private static func isRegular(_ status: stat) -> Bool {
        status.st_mode & S_IFMT == S_IFREG
    }

    private static func kind(_ status: stat) -> String {
        switch status.st_mode & S_IFMT {
        case S_IFDIR: "a folder"
        case S_IFIFO: "a FIFO"
        case S_IFCHR: "a character device"
        case S_IFBLK: "a block device"
        case S_IFSOCK: "a socket"
        default: "not a regular file"
        }
    }
}
