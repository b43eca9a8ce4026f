@testable import Lockstep
import Testing

// The broadcast state machine behind an effect's input and the test toolkit's event source,
// driven event by event: each event returns the readers to resume and the items to release,
// and the test performs the resumptions itself.

@Suite("Broadcast")
struct BroadcastTests {
    @Test("Every reader gets every item; a waiting reader is handed its item, a busy one queues it")
    func sendReachesEveryReader() async {
        let (continuations, tasks) = await suspendedTasks(1, returning: Int?.self)
        var broadcast = Broadcast<Int>(unclaimed: .keptForFirstReader)
        let waiting = broadcast.subscribe()
        let busy = broadcast.subscribe()
        #expect(broadcast.read(waiting, continuation: continuations[0], trackedTask: nil) == nil)

        var made = 0
        let resumptions = broadcast.send {
            made += 1
            return 7
        }
        #expect(made == 2)
        #expect(resumptions.map(\.item) == [7])
        resumptions.forEach { $0.perform() }
        #expect(await tasks[0].value == 7)

        let (later, laterTasks) = await suspendedTasks(1, returning: Int?.self)
        let now = broadcast.read(busy, continuation: later[0], trackedTask: nil)
        #expect(now?.item == 7)
        now?.perform()
        #expect(await laterTasks[0].value == 7)
    }

    @Test("The item a reader took stays in flight until it asks for the next one")
    func inFlightUntilTheNextRead() async {
        let (continuations, tasks) = await suspendedTasks(2, returning: Int?.self)
        var broadcast = Broadcast<Int>(unclaimed: .keptForFirstReader)
        let reader = broadcast.subscribe()
        _ = broadcast.send { 1 }
        _ = broadcast.send { 2 }

        #expect(broadcast.finishInFlight(reader) == nil)
        broadcast.read(reader, continuation: continuations[0], trackedTask: nil)?.perform()
        #expect(await tasks[0].value == 1)
        #expect(broadcast.finishInFlight(reader) == 1)
        #expect(broadcast.finishInFlight(reader) == nil)
        broadcast.read(reader, continuation: continuations[1], trackedTask: nil)?.perform()
        #expect(await tasks[1].value == 2)

        let (resumption, held) = broadcast.unsubscribe(reader)
        #expect(resumption == nil)
        #expect(held == [2])
        #expect(broadcast.readerCount == 0)
    }

    @Test("Items sent before any reader go to the first reader only, or to whichever reader comes next")
    func unclaimedItems() {
        var forFirst = Broadcast<Int>(unclaimed: .keptForFirstReader)
        _ = forFirst.send { 1 }
        let first = forFirst.subscribe()
        _ = forFirst.unsubscribe(first)
        var made = 0
        _ = forFirst.send {
            made += 1
            return 2
        }
        #expect(made == 0, "with no reader after the first, an item is dropped unmade")
        let second = forFirst.subscribe()
        #expect(forFirst.unsubscribe(second).1 == [])

        var whileNone = Broadcast<Int>(unclaimed: .keptWhileNoReader)
        let early = whileNone.subscribe()
        _ = whileNone.unsubscribe(early)
        _ = whileNone.send { 3 }
        let next = whileNone.subscribe()
        #expect(whileNone.unsubscribe(next).1 == [3])
    }

    @Test("Finishing ends waiting readers; queued items are read first, or released when discarded")
    func finishing() async {
        let (continuations, tasks) = await suspendedTasks(3, returning: Int?.self)
        var keeping = Broadcast<Int>(unclaimed: .keptForFirstReader)
        let waiting = keeping.subscribe()
        let behind = keeping.subscribe()
        #expect(keeping.read(waiting, continuation: continuations[0], trackedTask: nil) == nil)
        let handed = keeping.send { 1 }
        handed.forEach { $0.perform() }
        #expect(await tasks[0].value == 1)
        #expect(keeping.read(waiting, continuation: continuations[1], trackedTask: nil) == nil)

        let (ended, released) = keeping.finish(discardingQueued: false)
        #expect(ended.map(\.item) == [nil])
        #expect(released == [])
        ended.forEach { $0.perform() }
        #expect(await tasks[1].value == nil)
        #expect(keeping.send { 9 }.isEmpty)
        let queued = keeping.read(behind, continuation: continuations[2], trackedTask: nil)
        #expect(queued?.item == 1, "a reader reads what was queued for it before the end")
        queued?.perform()
        #expect(await tasks[2].value == 1)

        var discarding = Broadcast<Int>(unclaimed: .keptForFirstReader)
        let reader = discarding.subscribe()
        _ = discarding.send { 4 }
        _ = discarding.send { 5 }
        let (none, dropped) = discarding.finish(discardingQueued: true)
        #expect(none.isEmpty)
        #expect(dropped == [4, 5])
        let (after, afterTasks) = await suspendedTasks(1, returning: Int?.self)
        let end = discarding.read(reader, continuation: after[0], trackedTask: nil)
        #expect(end != nil && end?.item == nil)
        end?.perform()
        #expect(await afterTasks[0].value == nil)
    }

    @Test("A reader that leaves while waiting is resumed with nil and releases what it held")
    func leavingWhileWaiting() async {
        let (continuations, tasks) = await suspendedTasks(1, returning: Int?.self)
        var broadcast = Broadcast<Int>(unclaimed: .keptForFirstReader)
        let reader = broadcast.subscribe()
        #expect(broadcast.read(reader, continuation: continuations[0], trackedTask: nil) == nil)
        let (resumption, held) = broadcast.unsubscribe(reader)
        #expect(held == [])
        #expect(resumption != nil && resumption?.item == nil)
        resumption?.perform()
        #expect(await tasks[0].value == nil)
    }
}
