import Foundation
import Lockstep

/// Where an ``ActionRecorder`` writes its JSON Lines.
public protocol ActionLogSink: Sendable {
    /// Writes `data` (one or more whole lines, each ending in a newline) after what was written
    /// before.
    func write(_ data: Data) async throws
}

/// A sink that writes to a file, created (or emptied) when the sink is made.
public final class FileActionLogSink: ActionLogSink {
    private let handle: FileHandle

    /// Creates the file at `url`, replacing one that is there.
    public init(url: URL) throws {
        guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: url.path])
        }
        handle = try FileHandle(forWritingTo: url)
    }

    deinit {
        try? handle.close()
    }

    public func write(_ data: Data) async throws {
        try handle.write(contentsOf: data)
    }
}

/// A sink that keeps the lines in memory, for tests.
public final class MemoryActionLogSink: ActionLogSink {
    private let storage = Lock(Data())

    /// Creates an empty sink.
    public init() {}

    /// Everything written so far.
    public var data: Data {
        storage.withLock { $0 }
    }

    public func write(_ data: Data) async throws {
        storage.withLock { $0.append(data) }
    }
}

/// Records the actions a store reduces, with the state each produced, as JSON Lines: a session
/// that ``ActionLog`` reads back and a test replays.
///
/// ```swift
/// let recorder = ActionRecorder<AppState, AppAction>(
///   sink: try FileActionLogSink(url: sessionURL), appVersion: "2.4.0"
/// )
/// let store = Store(state: AppState(), reducer: appReducer, services: services,
///                   middlewares: middlewares, observers: [recorder.observer])
/// // ...
/// await recorder.flush()
/// ```
///
/// Recording never holds up a dispatch. The observer only appends the reduction to a bounded
/// buffer; a task of the recorder's encodes and writes it. When the buffer is full (the sink is
/// slower than the app), when the log reached `maxBytes`, or when the sink throws, the action
/// is dropped and counted in ``droppedCount``, and the log gets a line saying how many were
/// dropped, so a replay knows where the gap is. Recording can be paused and resumed with
/// ``isRecording``.
public final class ActionRecorder<State: Codable & Sendable, Action: Codable & Sendable>: Sendable {
    private struct Buffer {
        var pending: [(reduction: Reduction<State, Action>, afterGap: Bool)] = []
        var isRecording = true
        var afterGap = false
        var dropped = 0
        var droppedSinceLastLine = 0
        var bytes = 0
        var headerWritten = false
        var isWriting = false
        var isClosed = false
        var writer: CheckedContinuation<Void, Never>?
        var flushWaiters: [CheckedContinuation<Void, Never>] = []
    }

    /// How many reductions the buffer holds before it drops.
    public let capacity: Int
    /// The size the log may reach, in bytes; later entries are dropped.
    public let maxBytes: Int
    /// The app version written in the log's header.
    public let appVersion: String?

    private let buffer = Lock(Buffer())
    private let sink: any ActionLogSink
    private let writerTask = Lock<Task<Void, Never>?>(nil)

    /// Creates a recorder.
    ///
    /// - Parameters:
    ///   - sink: Where the lines go.
    ///   - appVersion: Written in the header, so ``ActionLog`` can reject a log of another version.
    ///   - capacity: How many reductions may wait for the sink; at least 1.
    ///   - maxBytes: The most the log may hold; at least 1.
    public init(
        sink: any ActionLogSink,
        appVersion: String? = nil,
        capacity: Int = 1_024,
        maxBytes: Int = 64 * 1_024 * 1_024
    ) {
        self.sink = sink
        self.appVersion = appVersion
        self.capacity = max(capacity, 1)
        self.maxBytes = max(maxBytes, 1)
        let task = Task { [buffer, sink, appVersion, maxBytes = self.maxBytes] in
            await Self.write(buffer: buffer, to: sink, appVersion: appVersion, maxBytes: maxBytes)
        }
        writerTask.withLock { $0 = task }
    }

    deinit {
        close()
    }

    /// The observer to give the store.
    public var observer: ActionObserver<State, Action> {
        ActionObserver { [buffer, capacity] reduction in
            let writer = buffer.withLock { buffer -> CheckedContinuation<Void, Never>? in
                guard buffer.isRecording, !buffer.isClosed else {
                    buffer.afterGap = true
                    return nil
                }
                guard buffer.pending.count < capacity else {
                    buffer.dropped += 1
                    buffer.droppedSinceLastLine += 1
                    buffer.afterGap = true
                    return nil
                }
                buffer.pending.append((reduction, buffer.afterGap))
                buffer.afterGap = false
                defer { buffer.writer = nil }
                return buffer.writer
            }
            writer?.resume()
        }
    }

    /// Whether reductions are recorded now. While it is `false` they are skipped (not counted
    /// as dropped); the first entry after a pause carries the state it started from.
    public var isRecording: Bool {
        get { buffer.withLock { $0.isRecording } }
        set { buffer.withLock { $0.isRecording = newValue } }
    }

    /// How many reductions were dropped: buffer full, size bound reached, or the sink threw.
    public var droppedCount: Int {
        buffer.withLock { $0.dropped }
    }

    /// How many bytes were written.
    public var writtenBytes: Int {
        buffer.withLock { $0.bytes }
    }

    /// Returns once everything recorded so far is written to the sink.
    public func flush() async {
        await withCheckedContinuation { continuation in
            let done = buffer.withLock { buffer in
                if buffer.pending.isEmpty && !buffer.isWriting { return true }
                buffer.flushWaiters.append(continuation)
                return false
            }
            if done { continuation.resume() }
        }
    }

    /// Stops recording for good, once what is buffered is written.
    public func close() {
        let writer = buffer.withLock { buffer in
            buffer.isClosed = true
            defer { buffer.writer = nil }
            return buffer.writer
        }
        writer?.resume()
    }

    // MARK: The writer

    private static func write(
        buffer: Lock<Buffer>, to sink: any ActionLogSink, appVersion: String?, maxBytes: Int
    ) async {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        while true {
            let next = await nextBatch(buffer)
            guard let (batch, headerWritten, droppedBefore) = next else { return }
            var data = Data()
            // Only this task adds to `bytes`, so one read per batch is current for all of it.
            let bytesBefore = buffer.withLock { $0.bytes }
            var header = headerWritten
            var dropped = 0
            var gapPending = droppedBefore > 0
            if droppedBefore > 0 {
                data.append(line(["dropped": droppedBefore]))
            }
            for (reduction, afterGap) in batch {
                var chunk = Data()
                if !header {
                    chunk.append(
                        (try? encoder.encode(
                            ActionLog<State, Action>.Header(
                                format: ActionLog<State, Action>.Header.format,
                                version: ActionLog<State, Action>.Header.version,
                                appVersion: appVersion, initialState: reduction.stateBefore))) ?? Data())
                    chunk.append(UInt8(ascii: "\n"))
                }
                let entry = ActionLog<State, Action>.Line(
                    seq: reduction.sequenceNumber, cause: reduction.cause, origin: reduction.originLabel,
                    action: reduction.action, state: reduction.stateAfter,
                    stateBefore: afterGap || gapPending ? reduction.stateBefore : nil)
                guard let encoded = try? encoder.encode(entry) else {
                    dropped += 1
                    gapPending = true
                    continue
                }
                chunk.append(encoded)
                chunk.append(UInt8(ascii: "\n"))
                let total = bytesBefore + data.count + chunk.count
                if total > maxBytes {
                    dropped += 1
                    gapPending = true
                    continue
                }
                header = true
                gapPending = false
                data.append(chunk)
            }
            var failed = false
            do {
                if !data.isEmpty { try await sink.write(data) }
            } catch {
                failed = true
            }
            let waiters = buffer.withLock { buffer -> [CheckedContinuation<Void, Never>] in
                if failed {
                    buffer.dropped += batch.count
                    buffer.droppedSinceLastLine += batch.count
                    buffer.afterGap = true
                } else {
                    buffer.bytes += data.count
                    buffer.headerWritten = buffer.headerWritten || header
                    buffer.dropped += dropped
                    if dropped > 0 { buffer.afterGap = true }
                }
                buffer.isWriting = false
                guard buffer.pending.isEmpty else { return [] }
                defer { buffer.flushWaiters = [] }
                return buffer.flushWaiters
            }
            for waiter in waiters { waiter.resume() }
        }
    }

    /// Waits for buffered reductions; `nil` once the recorder is closed and drained.
    private static func nextBatch(
        _ buffer: Lock<Buffer>
    ) async -> ([(reduction: Reduction<State, Action>, afterGap: Bool)], Bool, Int)? {
        while true {
            let taken = buffer.withLock { buffer -> ([(reduction: Reduction<State, Action>, afterGap: Bool)], Bool, Int)?? in
                if !buffer.pending.isEmpty {
                    defer {
                        buffer.pending = []
                        buffer.droppedSinceLastLine = 0
                        buffer.isWriting = true
                    }
                    return .some((buffer.pending, buffer.headerWritten, buffer.droppedSinceLastLine))
                }
                if buffer.isClosed { return .some(nil) }
                return nil
            }
            if let taken { return taken }
            await withCheckedContinuation { continuation in
                let ready = buffer.withLock { buffer in
                    if !buffer.pending.isEmpty || buffer.isClosed { return true }
                    buffer.writer = continuation
                    return false
                }
                if ready { continuation.resume() }
            }
        }
    }

    private static func line(_ object: [String: Int]) -> Data {
        var data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data()
        data.append(UInt8(ascii: "\n"))
        return data
    }
}
