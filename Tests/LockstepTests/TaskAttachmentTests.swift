@testable import Lockstep
import Testing

@Suite("TaskAttachment")
struct TaskAttachmentTests {
    @Test("A task attached before the owner is cancelled is handed back by the cancellation, to cancel then")
    func cancellingAfterAttachingHandsBackTheTask() async {
        let task = Task<Void, Never> {}
        var attachment = TaskAttachment()
        #expect(attachment.attach(task) == nil)
        #expect(!attachment.isCancelled)
        #expect(attachment.cancel() == task)
        #expect(attachment.isCancelled)
        await task.value
    }

    @Test("A task attached after the owner was cancelled is handed back at once, to cancel at once")
    func attachingAfterCancellingHandsBackTheTaskAtOnce() async {
        let task = Task<Void, Never> {}
        var attachment = TaskAttachment()
        #expect(attachment.cancel() == nil)
        #expect(attachment.isCancelled)
        #expect(attachment.attach(task) == task)
        await task.value
    }
}
