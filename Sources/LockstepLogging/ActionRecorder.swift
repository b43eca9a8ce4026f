import Foundation
import Lockstep

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
/// try await recorder.finish()
/// ```
///
/// Recording never holds up a dispatch. The observer only appends the reduction to a bounded
/// buffer; a task of the recorder's encodes and writes it. When the buffer is full (the sink is
/// slower than the app), when the log reached `maxBytes`, or when the sink throws, the action
/// is dropped and counted in ``droppedCount``, and the log gets a line saying how many were
/// dropped, so a replay knows where the gap is. Recording can be paused and resumed with
/// ``isRecording``.
///
/// What the log guarantees, whatever the load:
/// - Its first line is the header, with the state before the first recorded action, however
///   many actions were dropped before the writer first ran.
/// - Every dropped action is counted by a `{"dropped":N}` line: before the next entry written,
///   or, when none follows, at ``flush()`` or ``finish()``. The entries plus the dropped counts
///   equal the actions recorded. The one exception is a sink that keeps failing, which cannot
///   take the line that counts its losses; ``failure`` and ``finish()`` report it.
/// - The log never exceeds `maxBytes`: room for one dropped-count line is kept free, so the
///   losses after the log is full are still marked.
public final class ActionRecorder<State: Codable & Sendable, Action: Codable & Sendable>: Sendable {
    /// What the observer, the writer and the callers share, under one lock.
    private struct Buffer {
        var pending: [(reduction: Reduction<State, Action>, afterGap: Bool)] = []
        /// The state before the first recorded action: the header's, kept until it is written.
        var initialState: State?
        var headerWritten = false
        var isRecording = true
        var afterGap = false
        /// Dropped in all.
        var dropped = 0
        /// Dropped and not yet counted by a line of the log.
        var unmarked = 0
        var bytes = 0
        var isWriting = false
        /// A caller of `flush()` waits for the losses to be marked even with no entry to write.
        var markRequested = false
        /// Actions were lost after the last entry written, so the next entry written must carry
        /// the state it started from.
        var resynchronizes = false
        var isClosed = false
        var finalPassDone = false
        var writerFinished = false
        var failure: ActionRecorderError?
        /// The writer, waiting for work; every change that may give it some wakes it.
        var writer = WaiterQueue<Void, Void>()
        /// Callers of `flush()`, woken when a pass leaves nothing pending and nothing to mark.
        var flushWaiters = WaiterQueue<Void, Void>()
        /// Callers of `finish()`; closed, with `flushWaiters`, when the writer finishes.
        var finishWaiters = WaiterQueue<Void, Void>()

        /// Event: something the writer may have work in changed. Returns the writer to resume.
        mutating func wakeWriter() -> [WaiterQueue<Void, Void>.Resumption] {
            writer.satisfy { _ in () }
        }

        var hasUnmarkedWork: Bool {
            unmarked > 0 || (!headerWritten && initialState != nil)
        }
    }

    /// One pass of the writer: what it took from the buffer.
    private struct Work {
        var batch: [(reduction: Reduction<State, Action>, afterGap: Bool)]
        var initialState: State?
        var unmarked: Int
        var resynchronizes: Bool
        var bytes: Int
        /// Whether the losses at the end of the batch are to be marked now, and whether the
        /// room kept for that may be used (the last pass, after `close()`).
        var marksTrailingLosses: Bool
        var isFinal: Bool
    }

    /// The longest dropped-count line, `{"dropped":9223372036854775807}` and its newline: the
    /// room every write leaves free, so that the losses after it can always be marked.
    static var markerReserve: Int { markerLine(Int.max).count }

    /// How many reductions the buffer holds before it drops.
    public let capacity: Int
    /// The size the log may reach, in bytes; later entries are dropped.
    public let maxBytes: Int
    /// The app version written in the log's header.
    public let appVersion: String?

    private let buffer = Lock(Buffer())

    /// Creates a recorder.
    ///
    /// - Parameters:
    ///   - sink: Where the lines go.
    ///   - appVersion: Written in the header, so ``ActionLog`` can reject a log of another version.
    ///   - capacity: How many reductions may wait for the sink; at least 1.
    ///   - maxBytes: The most the log may hold; at least 1. The header must fit with 32 bytes to
    ///     spare (the room kept for a dropped-count line), or nothing is written.
    public init(
        sink: any ActionLogSink,
        appVersion: String? = nil,
        capacity: Int = 1_024,
        maxBytes: Int = 64 * 1_024 * 1_024
    ) {
        self.appVersion = appVersion
        self.capacity = max(capacity, 1)
        self.maxBytes = max(maxBytes, 1)
        Task { [buffer, maxBytes = self.maxBytes] in
            await Self.write(buffer: buffer, to: sink, appVersion: appVersion, maxBytes: maxBytes)
        }
    }

    deinit {
        close()
    }

    /// The observer to give the store.
    public var observer: ActionObserver<State, Action> {
        .nonisolated { [buffer, capacity] reduction in
            let writer = buffer.withLock { buffer -> [WaiterQueue<Void, Void>.Resumption] in
                guard buffer.isRecording, !buffer.isClosed else {
                    buffer.afterGap = true
                    return []
                }
                if buffer.initialState == nil && !buffer.headerWritten {
                    buffer.initialState = reduction.stateBefore
                }
                guard buffer.pending.count < capacity else {
                    buffer.dropped += 1
                    buffer.unmarked += 1
                    buffer.afterGap = true
                    return []
                }
                buffer.pending.append((reduction, buffer.afterGap))
                buffer.afterGap = false
                return buffer.wakeWriter()
            }
            for waiter in writer { waiter.perform() }
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

    /// The first failure that lost actions without a line of the log counting them: the sink
    /// threw, or the header does not fit in `maxBytes` or does not encode. `nil` while the log accounts for every
    /// action.
    public var failure: ActionRecorderError? {
        buffer.withLock { $0.failure }
    }

    /// Returns once everything recorded so far is written to the sink, with a line counting the
    /// actions dropped since the last entry. When the log is nearly full, that line waits for
    /// ``finish()``, which may use the room kept for it.
    public func flush() async {
        _ = await awaitChange(
            on: buffer, \.flushWaiters, for: (),
            immediate: { buffer in
                let idle = buffer.pending.isEmpty && !buffer.isWriting
                return buffer.writerFinished || (idle && !buffer.hasUnmarkedWork) ? () : nil
            },
            enqueued: { buffer in
                if buffer.hasUnmarkedWork { buffer.markRequested = true }
                let writer = buffer.wakeWriter()
                return { for waiter in writer { waiter.perform() } }
            })
    }

    /// Stops recording for good; what is buffered is still written, and the losses marked.
    public func close() {
        let writer = buffer.withLock { buffer in
            buffer.isClosed = true
            return buffer.wakeWriter()
        }
        for waiter in writer { waiter.perform() }
    }

    /// Stops recording, waits until everything is written and every loss is marked, and throws
    /// ``failure`` if there is one: call it before the app exits, and exit non-zero when it throws.
    public func finish() async throws(ActionRecorderError) {
        close()
        _ = await awaitChange(on: buffer, \.finishWaiters, for: ()) { buffer in
            buffer.writerFinished ? () : nil
        }
        if let failure { throw failure }
    }

    // MARK: The writer

    private static func write(
        buffer: Lock<Buffer>, to sink: any ActionLogSink, appVersion: String?, maxBytes: Int
    ) async {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        while let work = await nextWork(buffer) {
            var data = Data()
            var failure: ActionRecorderError?
            var headerWritten = false
            // Losses not yet marked: a line counting them goes before the next entry written.
            var gap = work.unmarked
            var resynchronizes = work.resynchronizes
            var room = maxBytes - work.bytes - markerReserve

            if let initialState = work.initialState {
                do {
                    let header = try headerLine(initialState, appVersion: appVersion, encoder: encoder)
                    if header.count <= room {
                        data.append(header)
                        room -= header.count
                        headerWritten = true
                    } else {
                        failure = .headerExceedsMaxBytes(headerBytes: header.count, maxBytes: maxBytes)
                    }
                } catch {
                    failure = .headerNotEncodable(error)
                }
            }
            let canWrite = work.initialState == nil || headerWritten
            var lostInBatch = 0
            for (reduction, afterGap) in work.batch {
                let startsAfterGap = afterGap || gap > 0 || resynchronizes
                guard canWrite, let entry = entryLine(reduction, afterGap: startsAfterGap, encoder: encoder) else {
                    gap += 1
                    lostInBatch += 1
                    resynchronizes = true
                    continue
                }
                let marker = gap > 0 ? markerLine(gap) : Data()
                guard marker.count + entry.count <= room else {
                    gap += 1
                    lostInBatch += 1
                    resynchronizes = true
                    continue
                }
                data.append(marker)
                data.append(entry)
                room -= marker.count + entry.count
                gap = 0
                resynchronizes = false
            }
            if gap > 0 && canWrite && work.marksTrailingLosses {
                let marker = markerLine(gap)
                if marker.count <= room + (work.isFinal ? markerReserve : 0) {
                    data.append(marker)
                    gap = 0
                }
            }

            var writeFailed = false
            if !data.isEmpty {
                do {
                    try await sink.write(data)
                } catch {
                    writeFailed = true
                    failure = failure ?? .sinkFailed(error)
                }
            }
            buffer.withLockResuming { buffer -> [WaiterQueue<Void, Void>.Resumption] in
                buffer.dropped += writeFailed ? work.batch.count : lostInBatch
                if writeFailed {
                    buffer.unmarked += work.unmarked + work.batch.count
                } else {
                    buffer.bytes += data.count
                    buffer.unmarked += gap
                    if headerWritten {
                        buffer.headerWritten = true
                        buffer.initialState = nil
                    }
                }
                buffer.resynchronizes = writeFailed || resynchronizes
                if buffer.failure == nil { buffer.failure = failure }
                buffer.isWriting = false
                // A flush that came during this pass asked for losses this pass marked.
                if !buffer.hasUnmarkedWork { buffer.markRequested = false }
                guard buffer.pending.isEmpty && !buffer.markRequested else { return [] }
                return buffer.flushWaiters.satisfy { _ in () }
            }
        }
        buffer.withLockResuming { buffer in
            buffer.writerFinished = true
            return buffer.flushWaiters.close() + buffer.finishWaiters.close()
        }
    }

    /// Waits for work; `nil` once the recorder is closed, drained and its losses marked.
    private static func nextWork(_ buffer: Lock<Buffer>) async -> Work? {
        while true {
            let taken = buffer.withLock { buffer -> Work?? in
                let closing = buffer.isClosed && buffer.pending.isEmpty
                let marks = buffer.markRequested || closing
                if !buffer.pending.isEmpty || (marks && buffer.hasUnmarkedWork && !buffer.finalPassDone) {
                    defer {
                        buffer.pending = []
                        buffer.unmarked = 0
                        buffer.markRequested = false
                        buffer.isWriting = true
                        if closing { buffer.finalPassDone = true }
                    }
                    return .some(
                        Work(
                            batch: buffer.pending,
                            initialState: buffer.headerWritten ? nil : buffer.initialState,
                            unmarked: buffer.unmarked, resynchronizes: buffer.resynchronizes,
                            bytes: buffer.bytes,
                            marksTrailingLosses: marks, isFinal: closing))
                }
                if buffer.isClosed { return .some(nil) }
                return nil
            }
            if let taken { return taken }
            _ = await awaitChange(on: buffer, \.writer, for: ()) { buffer in
                let hasWork = !buffer.pending.isEmpty || buffer.isClosed
                return hasWork || (buffer.markRequested && buffer.hasUnmarkedWork) ? () : nil
            }
        }
    }

    private static func headerLine(_ initialState: State, appVersion: String?, encoder: JSONEncoder) throws -> Data {
        let header = ActionLog<State, Action>.Header(
            format: ActionLog<State, Action>.Header.format,
            version: ActionLog<State, Action>.Header.version,
            appVersion: appVersion, initialState: initialState)
        var data = try encoder.encode(header)
        data.append(UInt8(ascii: "\n"))
        return data
    }

    private static func entryLine(
        _ reduction: Reduction<State, Action>, afterGap: Bool, encoder: JSONEncoder
    ) -> Data? {
        let entry = ActionLog<State, Action>.Line(
            seq: reduction.sequenceNumber, cause: reduction.cause, origin: reduction.originLabel,
            action: reduction.action, state: reduction.stateAfter,
            stateBefore: afterGap ? reduction.stateBefore : nil)
        guard var data = try? encoder.encode(entry) else { return nil }
        data.append(UInt8(ascii: "\n"))
        return data
    }

    static func markerLine(_ count: Int) -> Data {
        Data("{\"dropped\":\(count)}\n".utf8)
    }
}
