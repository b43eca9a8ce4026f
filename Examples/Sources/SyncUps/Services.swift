import Foundation
import Lockstep

/// Whether the app may use speech recognition.
public enum SpeechAuthorization: Equatable, Sendable {
    /// Not asked yet; denied by the user; not allowed on this device; allowed.
    case notDetermined, denied, restricted, authorized
}

/// The speech recognizer, a struct of closures: the live value wraps the platform's recognizer,
/// a test's returns the transcripts it chooses.
public struct SpeechClient: Sendable {
    /// Whether speech recognition is allowed, without asking.
    public var authorizationStatus: @Sendable () -> SpeechAuthorization
    /// Asks the user, once, and returns the answer.
    public var requestAuthorization: @Sendable () async -> SpeechAuthorization
    /// Starts recognizing: the transcript so far, each time it grows, until the sequence ends or
    /// throws.
    public var transcripts: @Sendable () -> any AsyncSequence<String, any Error> & Sendable

    /// A speech client made of these closures.
    public init(
        authorizationStatus: @escaping @Sendable () -> SpeechAuthorization,
        requestAuthorization: @escaping @Sendable () async -> SpeechAuthorization,
        transcripts: @escaping @Sendable () -> any AsyncSequence<String, any Error> & Sendable
    ) {
        self.authorizationStatus = authorizationStatus
        self.requestAuthorization = requestAuthorization
        self.transcripts = transcripts
    }

    /// Every endpoint fails the test that calls it.
    public static let unimplemented = SpeechClient(
        authorizationStatus: IssueReporting.unimplemented("SpeechClient.authorizationStatus", placeholder: .denied),
        requestAuthorization: IssueReporting.unimplemented("SpeechClient.requestAuthorization", placeholder: .denied),
        transcripts: IssueReporting.unimplemented(
            "SpeechClient.transcripts", placeholder: AsyncThrowingStream<String, any Error> { $0.finish() })
    )

    /// No recognizer (a platform without one, or a preview): recognition is restricted.
    public static let unavailable = SpeechClient(
        authorizationStatus: { .restricted },
        requestAuthorization: { .restricted },
        transcripts: { AsyncThrowingStream<String, any Error> { $0.finish() } }
    )
}

/// What the app's middlewares use: a clock for the meeting's timer and the speech recognizer.
/// (Ids and dates, which the reducers need, are `@Dependency(\.uuid)` and `@Dependency(\.date)`,
/// and the settings opener is ``SettingsClient``, `@Dependency(\.settings)`.)
public struct SyncUpsServices: Sendable {
    /// The clock the meeting's timer ticks on.
    public var clock: any Clock<Duration>
    /// The speech recognizer.
    public var speech: SpeechClient

    /// Services made of these values.
    public init(
        clock: any Clock<Duration>,
        speech: SpeechClient
    ) {
        self.clock = clock
        self.speech = speech
    }

    /// The app's services: the continuous clock and the given recognizer.
    public static func live(
        speech: SpeechClient = .unavailable
    ) -> SyncUpsServices {
        SyncUpsServices(clock: ContinuousClock(), speech: speech)
    }

    /// Every endpoint fails the test that calls it; a test replaces the ones it expects.
    public static let unimplemented = SyncUpsServices(
        clock: UnimplementedClock(),
        speech: .unimplemented
    )
}

/// A clock whose use fails the test: the unimplemented services' clock.
struct UnimplementedClock: Clock {
    private let used: @Sendable () -> Void = IssueReporting.unimplemented("SyncUpsServices.clock")

    var now: ContinuousClock.Instant {
        used()
        return ContinuousClock().now
    }

    var minimumResolution: Duration { .zero }

    func sleep(until deadline: ContinuousClock.Instant, tolerance: Duration?) async throws {
        used()
        throw CancellationError()
    }
}
