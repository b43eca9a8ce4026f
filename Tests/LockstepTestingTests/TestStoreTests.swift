@testable import LockstepFixtures
@testable import LockstepTesting
import Testing

@MainActor
@Suite("TestStore")
struct TestStoreTests {
    private func makeStore(
        calendar: MockCalendarService,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) -> TestStore<AppState, AppAction> {
        TestStore(
            state: AppState(),
            reducer: appReducer,
            services: ServiceContainer(calendarService: calendar),
            middlewares: [todayMiddleware],
            fileID: fileID,
            filePath: filePath,
            line: line,
            column: column
        )
    }

    @Test("send and receive assert each state change and each action the side effects send")
    func sendAndReceive() async {
        let calendar = MockCalendarService()
        calendar.mockShifts = [testShift1]
        let store = makeStore(calendar: calendar)

        await store.send(.today(.loadShifts)) {
            $0.today.isLoading = true
        }
        await store.receive(.today(.shiftsLoaded(.success([testShift1])))) {
            $0.today.isLoading = false
            $0.today.scheduledShifts = [testShift1]
        }
        #expect(calendar.loadShiftsCallCount == 1)
    }

    @Test("A state change that does not match is reported with a diff")
    func mismatchedStateIsReported() async {
        let store = TestStore(state: Counter(), reducer: counterReducer)

        await withKnownIssue {
            await store.send(.increment) {
                $0.value = 2
            }
        } matching: { issue in
            let message = issue.description
            return message.contains("does not match") && message.contains("−   value: 2,")
                && message.contains("+   value: 1,") && message.contains("(Expected: −, Actual: +)")
        }
    }

    @Test("A state change with no assertion is reported")
    func unassertedChangeIsReported() async {
        let store = TestStore(state: Counter(), reducer: counterReducer)

        await withKnownIssue {
            await store.send(.increment)
        } matching: { issue in
            issue.description.contains("State was not expected to change")
        }
    }

    @Test("A passing send reports nothing, and an action that changes nothing needs no closure")
    func passingAssertionsReportNothing() async {
        let store = TestStore(state: Counter(), reducer: counterReducer)

        await store.send(.listen)
        await store.send(.increment) { $0.value = 1 }

        #expect(store.state.value == 1)
    }

    @Test("An unexpected received action is reported with a diff")
    func unexpectedReceivedActionIsReported() async {
        let calendar = MockCalendarService()
        let store = makeStore(calendar: calendar)

        await store.send(.today(.loadShifts)) { $0.today.isLoading = true }
        await withKnownIssue {
            await store.receive(.today(.shiftsLoaded(.success([testShift2]))))
        } matching: { issue in
            issue.description.contains("Received an unexpected action:\n\n")
                && issue.description.contains("(Expected: −, Received: +)")
        }
    }

    @Test("Receiving when nothing can send an action fails at once")
    func receiveWithNothingInFlightFailsAtOnce() async {
        let store = TestStore(state: Counter(), reducer: counterReducer)

        await store.send(.increment) { $0.value = 1 }
        await withKnownIssue {
            await store.receive(.increment)
        } matching: { issue in
            issue.description.contains("no action was received, and nothing in flight can send one")
        }
    }

    @Test("An action received but not asserted is reported at the end of the test")
    func unassertedReceivedActionIsReportedAtEnd() async {
        let calendar = MockCalendarService()
        await withKnownIssue {
            let store = makeStore(calendar: calendar)
            await store.send(.today(.loadShifts)) { $0.today.isLoading = true }
        } matching: { issue in
            issue.description.contains("1 received action(s) not asserted")
        }
    }

    @Test("Sending before asserting received actions is reported")
    func sendBeforeReceivingIsReported() async {
        let calendar = MockCalendarService()
        let store = makeStore(calendar: calendar)

        await store.send(.today(.loadShifts)) { $0.today.isLoading = true }
        await withKnownIssue {
            await store.send(.schedule(.selectDay(1))) { $0.schedule.selectedDay = 1 }
        } matching: { issue in
            issue.description.contains("Must handle 1 received action(s)")
        }
    }

    @Test("send returns while a service call is parked on a gate; the test releases it")
    func sendReturnsWhenWorkIsParkedOnAGate() async {
        let gate = Gate()
        let calendar = MockCalendarService(gate: gate)
        calendar.mockShifts = [testShift2]
        let store = makeStore(calendar: calendar)

        let task = await store.send(.today(.loadShifts)) { $0.today.isLoading = true }
        #expect(!task.isFinished)
        #expect(gate.waitingCount == 1)
        #expect(store.state.today.isLoading == true)

        gate.open()
        await store.receive(.today(.shiftsLoaded(.success([testShift2])))) {
            $0.today.isLoading = false
            $0.today.scheduledShifts = [testShift2]
        }
        await task.finish()
        #expect(task.isFinished)
    }

    @Test("Work left parked at the end of the test is reported, naming the action")
    func parkedWorkAtEndIsReported() async {
        let gate = Gate()
        await withKnownIssue {
            let store = makeStore(calendar: MockCalendarService(gate: gate))
            await store.send(.today(.loadShifts)) { $0.today.isLoading = true }
        } matching: { issue in
            issue.description.contains("send(AppAction.today(.loadShifts))")
                && issue.description.contains("parked on a test double")
        }
    }

    @Test("Work cancelled through its task is not reported, and what it dispatches on its way out is dropped")
    func cancelledWorkIsNotReported() async {
        let gate = Gate()
        let calendar = MockCalendarService(gate: gate)
        let store = makeStore(calendar: calendar)

        let task = await store.send(.today(.loadShifts)) { $0.today.isLoading = true }
        await task.cancel()

        // The cancelled service call still finished the middleware, which dispatched a result
        // on its way out: dropped, since its task was cancelled, so there is nothing to receive
        // (the test store would report an unreceived action) and the state stays loading.
        #expect(task.isFinished)
        #expect(calendar.loadShiftsCallCount == 1)
        #expect(store.state.today.isLoading)
    }

    @Test("Finishing work that stays parked fails at once")
    func finishingParkedWorkFailsAtOnce() async {
        let gate = Gate()
        let store = makeStore(calendar: MockCalendarService(gate: gate))
        let task = await store.send(.today(.loadShifts)) { $0.today.isLoading = true }

        await withKnownIssue {
            await task.finish()
        } matching: { issue in
            issue.description.contains("nothing in flight can release it")
                && issue.description.contains("in flight: send(AppAction.today(.loadShifts)) parked on a Gate")
        }
        await task.cancel()
        store.skipReceivedActions()
    }

    @Test("receive by case, for actions that are not Equatable")
    func receiveByCase() async {
        let calendar = MockCalendarService()
        calendar.mockShifts = [testShift1]
        let store = makeStore(calendar: calendar)

        await store.send(.today(.loadShifts)) { $0.today.isLoading = true }
        await store.receive(\AppAction.today) {
            $0.today.isLoading = false
            $0.today.scheduledShifts = [testShift1]
        }
    }

    @Test("Non-exhaustive: assertions check only what they set, unasserted actions are skipped")
    func nonExhaustiveMode() async {
        let calendar = MockCalendarService()
        calendar.mockShifts = [testShift1]
        let store = makeStore(calendar: calendar)
        store.exhaustivity = .off

        await store.send(.today(.loadShifts))
        await store.send(.schedule(.selectDay(4))) { $0.schedule.selectedDay = 4 }

        #expect(store.state.today.scheduledShifts == [testShift1])
    }

    @Test("Effects: an effect's output is received, and send waits for the effect to react")
    func effectOutputIsReceived() async {
        let store = TestStore(
            state: Counter(),
            reducer: counterReducer,
            effects: [
                Effect { actions in
                    actions.ofCase { action -> Int? in
                        if case .countdown(let n) = action, n > 0 { n } else { nil }
                    }
                    .map { n in CounterAction.countdown(n - 1) }
                },
            ]
        )

        await store.send(.countdown(2)) { $0.log = [2] }
        await store.receive(.countdown(1)) { $0.log = [2, 1] }
        await store.receive(.countdown(0)) { $0.log = [2, 1, 0] }
    }

    @Test("Effects: work parked on a gate inside an effect is known to the test store")
    func effectParkedOnAGate() async {
        let gate = Gate()
        let store = TestStore(
            state: Counter(),
            reducer: counterReducer,
            effects: [
                Effect { actions in
                    actions.ofCase { action -> Void? in action == .listen ? () : nil }
                        .map { _ in
                            await gate.pass()
                            return CounterAction.increment
                        }
                },
            ]
        )

        let task = await store.send(.listen)
        #expect(gate.waitingCount == 1)
        #expect(!task.isFinished)

        gate.open()
        await store.receive(.increment) { $0.value = 1 }
        await task.finish()
    }

    @Test("Two middlewares, one parked on a gate: send waits for the other one to finish")
    func sendWaitsForRunningWorkBesideParkedWork() async {
        let gate = Gate()
        let store = TestStore(state: Counter(), reducer: counterReducer, middlewares: [
            { _, action, _ in
                if action == .listen { await gate.pass() }
            },
            { _, action, dispatch in
                if action == .listen { await dispatch(.increment) }
            },
        ])

        let task = await store.send(.listen)
        await store.receive(.increment) { $0.value = 1 }
        #expect(!task.isFinished)

        gate.open()
        await task.finish()
    }

    @Test("A test store used from a test other than its own reports it, and still runs the call")
    func testStoreUsedOutsideItsTestIsReported() async {
        let store = TestStore(state: Counter(), reducer: counterReducer)
        store.owningTest = nil   // as if made outside this test

        await withKnownIssue {
            await store.send(.increment) { $0.value = 1 }
        } matching: { issue in
            issue.description.contains("This TestStore was made outside any test")
                && issue.description.contains("send(")
        }

        #expect(store.state.value == 1)
    }

    @Test("A test store used in its own test reports nothing")
    func testStoreUsedInItsTestIsQuiet() async {
        let store = TestStore(state: Counter(), reducer: counterReducer)
        #expect(store.owningTest != nil)
        await store.send(.increment) { $0.value = 1 }
    }
}
