import Dependencies
import DependenciesMacros

/// Opens the app's page in the system settings: a client written with swift-dependencies'
/// `@DependencyClient` macro, read with `@Dependency(\.settings)`.
///
/// The macro writes the initializer and a test value whose every endpoint fails the test that
/// calls it; the app pays swift-syntax's build for it because it chose the macro (Lockstep's own
/// products need none).
@DependencyClient
public struct SettingsClient: Sendable {
    /// Opens the settings.
    public var open: @Sendable () async -> Void
}

extension SettingsClient: DependencyKey {
    /// Nothing to open where there is no settings app (Linux); an Apple app sets its own.
    public static let liveValue = SettingsClient(open: {})
    /// Every endpoint fails the test that calls it: the macro's unimplemented client.
    public static let testValue = SettingsClient()
}

extension DependencyValues {
    /// The app's settings opener.
    public var settings: SettingsClient {
        get { self[SettingsClient.self] }
        set { self[SettingsClient.self] = newValue }
    }
}
