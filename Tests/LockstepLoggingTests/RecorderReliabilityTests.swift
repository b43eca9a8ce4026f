import Foundation
import Lockstep
import LockstepLogging
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The recorder under load and faults: every action is either an entry of the log or counted by
/// a dropped line of it, the header comes first, and the log keeps its size bound.
@MainActor
@Suite("Recorder under load and faults")
struct RecorderReliabilityTests {
    @Test(
        "A burst larger than the buffer still gives a log that starts with its header and accounts for every action",
        arguments: [1, 16, 1_024])
    func burstKeepsHeaderFirstAndCountsEveryDrop(capacity: Int) async throws {
        let sink = MemoryActionLogSink()
        let recorder = ActionRecorder<Tally, TallyAction>(sink: sink, capacity: capacity)
        let store = Store(state: Tally(), reducer: tallyReducer, observers: [recorder.observer])
        for _ in 1...20_000 {
            await store.dispatch(.add(1))
        }
        try await recorder.finish()

        let firstLine = try #require(sink.data.split(separator: UInt8(ascii: "\n")).first)
        #expect(String(decoding: firstLine, as: UTF8.self).hasPrefix(#"{"format":"lockstep.action-log""#))
        let log = try ActionLog<Tally, TallyAction>(data: sink.data)
        #expect(log.initialState == Tally())
        #expect(log.entries.count + log.droppedCount == 20_000)
        #expect(log.droppedCount == recorder.droppedCount)
        try log.verify(reducer: tallyReducer)
    }

    @Test("Actions dropped for the size bound are marked in the log, which never exceeds maxBytes")
    func sizeBoundDropsAreMarkedWithinTheBound() async throws {
        for maxBytes in [200, 400, 1_000] {
            let sink = MemoryActionLogSink()
            let recorder = ActionRecorder<Tally, TallyAction>(sink: sink, maxBytes: maxBytes)
            let store = Store(state: Tally(), reducer: tallyReducer, observers: [recorder.observer])
            for n in 1...50 {
                await store.dispatch(.add(n))
                await recorder.flush()
                #expect(sink.data.count <= maxBytes)
            }
            // More losses after the log is full: the room kept for the dropped line takes them.
            for n in 51...60 {
                await store.dispatch(.add(n))
            }
            try await recorder.finish()

            #expect(sink.data.count <= maxBytes)
            let log = try ActionLog<Tally, TallyAction>(data: sink.data)
            #expect(log.droppedCount > 0)
            #expect(log.entries.count + log.droppedCount == 60)
            #expect(log.droppedCount == recorder.droppedCount)
            try log.verify(reducer: tallyReducer)
        }
    }

    @Test("A sink that fails for a while loses those actions, and the log marks them once it works again")
    func transientSinkFailureIsMarked() async throws {
        let sink = FlakySink(failingActions: [2, 3])
        let recorder = ActionRecorder<Tally, TallyAction>(sink: sink)
        let store = Store(state: Tally(), reducer: tallyReducer, observers: [recorder.observer])
        for n in 1...6 {
            await store.dispatch(.add(n))
            await recorder.flush()
        }
        try? await recorder.finish()

        let log = try ActionLog<Tally, TallyAction>(data: sink.data)
        #expect(log.entries.map(\.action) == [.add(1), .add(4), .add(5), .add(6)])
        #expect(log.droppedCount == 2)
        #expect(recorder.droppedCount == 2)
        #expect(log.entries[1].stateBefore == Tally(total: 6))
        try log.verify(reducer: tallyReducer)
        guard case .sinkFailed = recorder.failure else {
            Issue.record("expected sinkFailed, got \(String(describing: recorder.failure))")
            return
        }
    }

    @Test("The first write failing does not lose the header: it is written with the next one")
    func headerSurvivesAFailedFirstWrite() async throws {
        let sink = FlakySink(failingActions: [1])
        let recorder = ActionRecorder<Tally, TallyAction>(sink: sink)
        let store = Store(state: Tally(total: 5), reducer: tallyReducer, observers: [recorder.observer])
        await store.dispatch(.add(1))
        await recorder.flush()
        await store.dispatch(.add(2))
        await #expect(throws: ActionRecorderError.self) { try await recorder.finish() }

        let log = try ActionLog<Tally, TallyAction>(data: sink.data)
        #expect(log.initialState == Tally(total: 5))
        #expect(log.entries.map(\.action) == [.add(2)])
        #expect(log.droppedCount == 1)
        try log.verify(reducer: tallyReducer)
    }

    @Test("A sink that always fails is reported by finish(), so the app can exit non-zero")
    func failingSinkIsVisible() async throws {
        let recorder = ActionRecorder<Tally, TallyAction>(sink: FailingSink())
        let store = Store(state: Tally(), reducer: tallyReducer, observers: [recorder.observer])
        await store.dispatch(.add(1))
        do {
            try await recorder.finish()
            Issue.record("finish() returned although every write failed")
        } catch {
            guard case .sinkFailed(let underlying) = error else {
                Issue.record("expected sinkFailed, got \(error)")
                return
            }
            #expect(underlying is FailingSink.Full)
            #expect(error.description.hasPrefix("the action log could not be written"))
        }
        #expect(recorder.droppedCount == 1)
    }

    @Test("An initial state that does not encode writes nothing and says so")
    func unencodableInitialStateIsReported() async throws {
        struct Reading: Codable, Equatable, Sendable { var value: Double }
        let sink = MemoryActionLogSink()
        let recorder = ActionRecorder<Reading, Double>(sink: sink)
        let store = Store(
            state: Reading(value: .nan), reducer: { _, value in Reading(value: value) }, observers: [recorder.observer])
        await store.dispatch(1)
        do {
            try await recorder.finish()
            Issue.record("finish() returned although the header does not encode")
        } catch {
            guard case .headerNotEncodable = error else {
                Issue.record("expected headerNotEncodable, got \(error)")
                return
            }
        }
        #expect(sink.data.isEmpty)
        #expect(recorder.droppedCount == 1)
    }

    @Test("A header larger than maxBytes writes nothing and says so")
    func headerLargerThanTheBoundIsReported() async throws {
        let sink = MemoryActionLogSink()
        let recorder = ActionRecorder<Tally, TallyAction>(sink: sink, maxBytes: 40)
        let store = Store(state: Tally(), reducer: tallyReducer, observers: [recorder.observer])
        await store.dispatch(.add(1))
        await #expect(throws: ActionRecorderError.self) { try await recorder.finish() }
        #expect(sink.data.isEmpty)
        #expect(recorder.droppedCount == 1)
    }
}

/// The file sink and the paths it is given.
@Suite("File sink paths")
struct FileSinkPathTests {
    func withFolder(_ body: (URL) async throws -> Void) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("lockstep-sink-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try await body(folder)
    }

    @Test("Recording through a symbolic link writes its target and keeps the link and the target's mode")
    func symlinkAndModeAreKept() async throws {
        try await withFolder { folder in
            let target = folder.appendingPathComponent("target.jsonl")
            let link = folder.appendingPathComponent("link.jsonl")
            try Data("old\n".utf8).write(to: target)
            #expect(chmod(target.path, 0o600) == 0)
            try FileManager.default.createSymbolicLink(at: link, withDestinationURL: target)

            let sink = try FileActionLogSink(url: link)
            try await sink.write(Data("{\"a\":1}\n".utf8))

            let attributes = try FileManager.default.attributesOfItem(atPath: link.path)
            #expect(attributes[.type] as? FileAttributeType == .typeSymbolicLink)
            let mode = try FileManager.default.attributesOfItem(atPath: target.path)[.posixPermissions] as? Int
            #expect(mode == 0o600)
            #expect(try String(contentsOf: target, encoding: .utf8) == "{\"a\":1}\n")
        }
    }

    @Test("A FIFO, a device and a folder are refused and left as they are")
    func specialFilesAreRefused() async throws {
        try await withFolder { folder in
            let fifo = folder.appendingPathComponent("fifo")
            #expect(mkfifo(fifo.path, 0o600) == 0)
            #expect(throws: FileActionLogSinkError.self) { try FileActionLogSink(url: fifo) }
            var status = stat()
            #expect(lstat(fifo.path, &status) == 0 && status.st_mode & S_IFMT == S_IFIFO)

            let error = #expect(throws: FileActionLogSinkError.self) {
                try FileActionLogSink(url: URL(fileURLWithPath: "/dev/null"))
            }
            #expect(error?.reason == "it is a character device, not a regular file")
            #expect(lstat("/dev/null", &status) == 0 && status.st_mode & S_IFMT == S_IFCHR)

            #expect(throws: FileActionLogSinkError.self) { try FileActionLogSink(url: folder) }
        }
    }
}

/// `ActionLog` on files made to break it: errors, never a trap, in bounded memory.
@Suite("Action log on hostile input")
struct HostileActionLogTests {
    let header = #"{"format":"lockstep.action-log","initialState":{"requests":0,"total":0},"version":1}"#

    func read(_ lines: [String], maxLineBytes: Int = ActionLog<Tally, TallyAction>.defaultMaxLineBytes) throws {
        _ = try ActionLog<Tally, TallyAction>(
            data: Data((lines.joined(separator: "\n") + "\n").utf8), maxLineBytes: maxLineBytes)
    }

    @Test("Dropped counts that overflow when added are an error, not a trap")
    func overflowingDroppedCountIsAnError() throws {
        #expect(throws: ActionLogError.corrupt(line: 3, reason: "the dropped counts add up to more than \(Int.max)")) {
            try read([header, #"{"dropped":\#(Int.max)}"#, #"{"dropped":1}"#])
        }
        #expect(throws: ActionLogError.self) {
            try read([header, #"{"dropped":100000000000000000000000}"#])
        }
    }

    @Test("A negative dropped count is rejected")
    func negativeDroppedCountIsRejected() throws {
        #expect(throws: ActionLogError.corrupt(line: 2, reason: "the dropped count -5 is negative")) {
            try read([header, #"{"dropped":-5}"#])
        }
    }

    @Test("A line longer than maxLineBytes is rejected, from data and from a file read in chunks")
    func overlongLineIsRejected() async throws {
        let long = #"{"dropped":1,"padding":""# + String(repeating: "x", count: 300_000) + #""}"#
        #expect(throws: ActionLogError.lineTooLong(line: 2, maxBytes: 1_000)) {
            try read([header, long], maxLineBytes: 1_000)
        }
        #expect(throws: ActionLogError.lineTooLong(line: 1, maxBytes: 10)) {
            try read([header], maxLineBytes: 10)
        }

        let url = FileManager.default.temporaryDirectory.appendingPathComponent("lockstep-long-\(UUID()).jsonl")
        defer { try? FileManager.default.removeItem(at: url) }
        try Data((header + "\n" + long + "\n").utf8).write(to: url)
        #expect(throws: ActionLogError.lineTooLong(line: 2, maxBytes: 1_000)) {
            _ = try ActionLog<Tally, TallyAction>(contentsOf: url, maxLineBytes: 1_000)
        }
        // Unterminated, too: the reader stops at the bound, not at the end of the line.
        try Data((header + "\n" + long).utf8).write(to: url)
        #expect(throws: ActionLogError.lineTooLong(line: 2, maxBytes: 1_000)) {
            _ = try ActionLog<Tally, TallyAction>(contentsOf: url, maxLineBytes: 1_000)
        }
        // Within the bound, the same file reads, line by line.
        let log = try ActionLog<Tally, TallyAction>(contentsOf: url, maxLineBytes: 400_000)
        #expect(log.droppedCount == 1)
    }

    @Test("A file read in chunks gives the same log and errors as its data")
    func fileAndDataReadTheSame() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("lockstep-chunks-\(UUID()).jsonl")
        defer { try? FileManager.default.removeItem(at: url) }
        var lines = [header]
        for n in 1...5_000 {
            lines.append(#"{"action":{"add":{"_0":1}},"origin":"app","seq":\#(n),"state":{"requests":0,"total":\#(n)}}"#)
        }
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: url)
        let log = try ActionLog<Tally, TallyAction>(contentsOf: url)
        #expect(log.entries.count == 5_000)
        #expect(log.entries.last?.line == 5_001)
        try log.verify(reducer: tallyReducer)

        try Data((lines.joined(separator: "\n") + "\n{\"seq\":").utf8).write(to: url)
        #expect(throws: ActionLogError.truncated(line: 5_002)) {
            _ = try ActionLog<Tally, TallyAction>(contentsOf: url)
        }
    }
}

/// A sink whose writes that hold `.add(n)` for an `n` of `failingActions` throw; the others
/// (such as a dropped-count line alone) go through, whenever the writer sends them.
final class FlakySink: ActionLogSink {
    struct Unavailable: Error {}
    private let memory = MemoryActionLogSink()
    private let failingActions: [Int]
    var data: Data { memory.data }

    init(failingActions: [Int]) {
        self.failingActions = failingActions
    }

    func write(_ data: Data) async throws {
        let text = String(decoding: data, as: UTF8.self)
        if failingActions.contains(where: { text.contains(#"{"add":{"_0":\#($0)}}"#) }) { throw Unavailable() }
        try await memory.write(data)
    }
}
