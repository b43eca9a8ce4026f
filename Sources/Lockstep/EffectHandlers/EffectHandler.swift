import IssueReporting

/// A function that performs a side effect and returns the event that reports its completion.
///
/// The single-entry-point pattern models side effects as a value (an `Effect` enum of
/// the app's) and their completions as events (`When`), fed back into the one `handle(_:)` that
/// changes state. The handler is the injectable part: production passes a real one, a test a
/// fake or ``unimplementedEffectHandler(_:fileID:filePath:line:column:)``.
///
/// ```swift
/// let effectHandler: EffectHandler<ProfileEffect, When> = { effect in
///     switch effect {
///     case .performGetProfileNetworkRequest:
///         .networkFinishesLoadingProfile(.success(try await api.loadProfile()))
///     case .performSaveProfileNetworkRequest(let email):
///         .networkFinishesSavingProfile(.success(try await api.saveProfile(email: email)))
///     }
/// }
/// ```
public typealias EffectHandler<Effect, When> = @Sendable (Effect) async throws -> When

/// An effect handler for tests that must not trigger any effect: it reports an issue naming the
/// effect, then throws ``UnexpectedEffectError``.
///
/// ```swift
/// let model = MyViewModel(effectHandler: unimplementedEffectHandler())
/// ```
///
/// The issue is reported through IssueReporting, so it fails the running Swift Testing or XCTest
/// test; outside tests it is a runtime warning.
///
/// - Parameters:
///   - description: What the handler stands for, included in the issue.
///   - fileID: The file the issue is attributed to; defaults to the caller's.
///   - filePath: The file path the issue is attributed to; defaults to the caller's.
///   - line: The line the issue is attributed to; defaults to the caller's.
///   - column: The column the issue is attributed to; defaults to the caller's.
/// - Returns: A handler that fails on every call.
public func unimplementedEffectHandler<Effect, When>(
    _ description: String = "",
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
) -> EffectHandler<Effect, When> {
    { effect in
        let about = description.isEmpty ? "" : " (\(description))"
        reportIssue(
            "Unimplemented effect handler\(about) was asked to perform \(effect).",
            fileID: fileID,
            filePath: filePath,
            line: line,
            column: column
        )
        throw UnexpectedEffectError(effect: String(describing: effect))
    }
}

/// The error of ``unimplementedEffectHandler(_:fileID:filePath:line:column:)``: an effect was
/// triggered where none was expected. An ``EffectRunner`` keeps it among its ``EffectRunner/failures``.
///
/// ```swift
/// let vm = ProfileViewModel(effectHandler: unimplementedEffectHandler("ProfileViewModel"))
/// try vm.handle(.systemShowsUserProfileView)
/// await vm.effects.waitUntilIdle()
/// #expect(vm.effects.failures.first?.error as? UnexpectedEffectError
///   == UnexpectedEffectError(effect: "performGetProfileNetworkRequest"))
/// ```
public struct UnexpectedEffectError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The effect that was triggered, described.
    public let effect: String

    /// Creates the error for `effect`.
    public init(effect: String) {
        self.effect = effect
    }

    public var description: String {
        "The effect \(effect) was triggered where no effect was expected."
    }
}
