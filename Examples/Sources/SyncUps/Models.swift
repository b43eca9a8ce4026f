import Foundation
import IdentifiedCollections

/// A recurring meeting: its attendees, how long it lasts, its theme and its past meetings.
public struct SyncUp: Equatable, Sendable, Identifiable, Codable {
    /// The sync-up's id, made by the app's generators.
    public let id: UUID
    /// Who speaks, in turn.
    public var attendees: IdentifiedArrayOf<Attendee> = []
    /// How long a meeting lasts, shared equally between the attendees.
    public var duration: Duration = .seconds(60 * 5)
    /// The past meetings, newest first.
    public var meetings: IdentifiedArrayOf<Meeting> = []
    /// The colors of the sync-up's screens.
    public var theme: Theme = .bubblegum
    /// The sync-up's name.
    public var title = ""

    /// A sync-up with these values.
    public init(
        id: UUID,
        attendees: IdentifiedArrayOf<Attendee> = [],
        duration: Duration = .seconds(60 * 5),
        meetings: IdentifiedArrayOf<Meeting> = [],
        theme: Theme = .bubblegum,
        title: String = ""
    ) {
        self.id = id
        self.attendees = attendees
        self.duration = duration
        self.meetings = meetings
        self.theme = theme
        self.title = title
    }

    /// Each attendee's share of the meeting.
    public var durationPerAttendee: Duration {
        duration / max(attendees.count, 1)
    }
}

/// A person who speaks at a sync-up.
public struct Attendee: Equatable, Sendable, Identifiable, Codable {
    /// The attendee's id, made by the app's generators.
    public let id: UUID
    /// The attendee's name.
    public var name = ""

    /// An attendee with this name.
    public init(id: UUID, name: String = "") {
        self.id = id
        self.name = name
    }
}

/// A meeting that took place: when, and what was said.
public struct Meeting: Equatable, Sendable, Identifiable, Codable {
    /// The meeting's id, made by the app's generators.
    public let id: UUID
    /// When the meeting ended.
    public let date: Date
    /// What the speech recognizer heard.
    public var transcript: String

    /// A meeting with these values.
    public init(id: UUID, date: Date, transcript: String) {
        self.id = id
        self.date = date
        self.transcript = transcript
    }
}

/// The colors of a sync-up.
public enum Theme: String, CaseIterable, Equatable, Hashable, Sendable, Identifiable, Codable {
    /// The themes, named after their main color.
    case bubblegum, buttercup, indigo, lavender, magenta, navy, orange, oxblood, periwinkle, poppy,
        purple, seafoam, sky, tan, teal, yellow

    /// The theme's name, its id in a picker.
    public var id: Self { self }
    /// The theme's name as shown.
    public var name: String { rawValue.capitalized }
}

extension SyncUp {
    /// The meeting's length in whole minutes, as the form's stepper shows it.
    public var minutes: Int {
        get { Int(duration.components.seconds / 60) }
        set { duration = .seconds(newValue * 60) }
    }
}
