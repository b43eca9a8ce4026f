import Lockstep

extension TestStore {
    /// Creates a test store that runs a feature, its children's reducers and side effects
    /// included, with `services` (usually test doubles).
    ///
    /// ```swift
    /// let store = TestStore(state: LoginState(), feature: loginFeature, services: .test)
    /// ```
    ///
    /// - Parameters:
    ///   - state: The initial state.
    ///   - feature: The feature under test.
    ///   - services: The services its side effects receive.
    ///   - effects: Effects to run for the whole life of the store.
    ///   - observers: Observers of every reduction.
    ///   - fileID: The file of the issue for work left running at the end of the test.
    ///   - filePath: The file path of that issue.
    ///   - line: The line of that issue.
    ///   - column: The column of that issue.
    public convenience init<Services: Sendable>(
        state: State,
        feature: Feature<State, Action, Services>,
        services: Services,
        effects: [Effect<Action>] = [],
        observers: [ActionObserver<State, Action>] = [],
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) {
        self.init(
            state: state, reducer: feature.reducer, services: services, effects: effects, observers: observers,
            fileID: fileID, filePath: filePath, line: line, column: column, sideEffects: { feature.sideEffects })
    }

    /// Creates a test store that runs a feature that needs no services.
    ///
    /// - Parameters:
    ///   - state: The initial state.
    ///   - feature: The feature under test.
    ///   - effects: Effects to run for the whole life of the store.
    ///   - observers: Observers of every reduction.
    ///   - fileID: The file of the issue for work left running at the end of the test.
    ///   - filePath: The file path of that issue.
    ///   - line: The line of that issue.
    ///   - column: The column of that issue.
    public convenience init(
        state: State,
        feature: Feature<State, Action, Void>,
        effects: [Effect<Action>] = [],
        observers: [ActionObserver<State, Action>] = [],
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) {
        self.init(
            state: state, feature: feature, services: (), effects: effects, observers: observers,
            fileID: fileID, filePath: filePath, line: line, column: column)
    }
}
