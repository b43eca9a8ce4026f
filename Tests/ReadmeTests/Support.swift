// What the README's snippets use without showing it: the shifts, the calendar service and its
// test double. The snippets themselves are the other files of this target, which the README
// quotes (DocumentationTests' SnippetTests checks that it still does).
import LockstepTesting

struct Shift: Equatable, Sendable, Identifiable {
    let id: Int
    let title: String
}

let morning = Shift(id: 1, title: "Morning")
let evening = Shift(id: 2, title: "Evening")

protocol CalendarService: Sendable {
    func loadShifts() async -> [Shift]
}

struct ServiceContainer: Sendable {
    let calendarService: any CalendarService
}

/// Answers `shifts`; with a gate, each call waits at it until the test opens it.
struct MockCalendarService: CalendarService {
    let shifts: [Shift]
    var gate: Gate?

    func loadShifts() async -> [Shift] {
        await gate?.pass()
        return shifts
    }
}
