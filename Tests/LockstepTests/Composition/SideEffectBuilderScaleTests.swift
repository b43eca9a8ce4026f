@testable import Lockstep
import Testing

// Generated: twenty, fifty and a hundred statements in one SideEffectBuilder each, lifted features
// with a plain middleware every tenth statement and an `if` every twenty-fifth. The builder
// type-checks each statement on its own, so this file's type-checking time grows with the
// statements, not with their combinations: with -debug-time-function-bodies, on a 2-core x86_64
// Linux machine, the bodies below took about 50 ms (20 statements), 175 ms (50) and 600 ms (100).

@MainActor
@Suite("The builder of side effects at scale")
struct SideEffectBuilderScaleTests {
    @Test("20 statements: one feature's action calls its feature alone")
    func statements20() async {
        let calls = Recorder<Int>()
        let includeOptional = true
        let store = Store(state: FeaturesState(), reducer: featuresReducer) {
            scopeMiddleware(
                { (_: Int, _: FeatureAction, _: Dispatcher<FeatureAction>) in calls.append(0) },
                state: \FeaturesState.counts[0], action: { $0.of(0) }, embed: { .feature(0, $0) })
            scopeMiddleware(
                { (_: Int, _: FeatureAction, _: Dispatcher<FeatureAction>) in calls.append(1) },
                state: \FeaturesState.counts[1], action: { $0.of(1) }, embed: { .feature(1, $0) })
            scopeMiddleware(
                { (_: Int, _: FeatureAction, _: Dispatcher<FeatureAction>) in calls.append(2) },
                state: \FeaturesState.counts[2], action: { $0.of(2) }, embed: { .feature(2, $0) })
            scopeMiddleware(
                { (_: Int, _: FeatureAction, _: Dispatcher<FeatureAction>) in calls.append(3) },
                state: \FeaturesState.counts[3], action: { $0.of(3) }, embed: { .feature(3, $0) })
            scopeMiddleware(
                { (_: Int, _: FeatureAction, _: Dispatcher<FeatureAction>) in calls.append(4) },
                state: \FeaturesState.counts[4], action: { $0.of(4) }, embed: { .feature(4, $0) })
            scopeMiddleware(
                { (_: Int, _: FeatureAction, _: Dispatcher<FeatureAction>) in calls.append(5) },
                state: \FeaturesState.counts[5], action: { $0.of(5) }, embed: { .feature(5, $0) })
            scopeMiddleware(
                { (_: Int, _: FeatureAction, _: Dispatcher<FeatureAction>) in calls.append(6) },
                state: \FeaturesState.counts[6], action: { $0.of(6) }, embed: { .feature(6, $0) })
            scopeMiddleware(
                { (_: Int, _: FeatureAction, _: Dispatcher<FeatureAction>) in calls.append(7) },
                state: \FeaturesState.counts[7], action: { $0.of(7) }, embed: { .feature(7, $0) })
            scopeMiddleware(
                { (_: Int, _: FeatureAction, _: Dispatcher<FeatureAction>) in calls.append(8) },
                state: \FeaturesState.counts[8], action: { $0.of(8) }, embed: { .feature(8, $0) });
            { (_: FeaturesState, action: FeaturesAction, _: Dispatcher<FeaturesAction>) in if action == .other { calls.append(9) } }
            scopeMiddleware(
                { (_: Int, _: FeatureAction, _: Dispatcher<FeatureAction>) in calls.append(10) },
                state: \FeaturesState.counts[10], action: { $0.of(10) }, embed: { .feature(10, $0) })
            scopeMiddleware(
                { (_: Int, _: FeatureAction, _: Dispatcher<FeatureAction>) in calls.append(11) },
                state: \FeaturesState.counts[11], action: { $0.of(11) }, embed: { .feature(11, $0) })
            if includeOptional {
                scopeMiddleware(
                    { (_: Int, _: FeatureAction, _: Dispatcher<FeatureAction>) in calls.append(12) },
                    state: \FeaturesState.counts[12], action: { $0.of(12) }, embed: { .feature(12, $0) })
            }
            scopeMiddleware(
                { (_: Int, _: FeatureAction, _: Dispatcher<FeatureAction>) in calls.append(13) },
                state: \FeaturesState.counts[13], action: { $0.of(13) }, embed: { .feature(13, $0) })
            scopeMiddleware(
                { (_: Int, _: FeatureAction, _: Dispatcher<FeatureAction>) in calls.append(14) },
                state: \FeaturesState.counts[14], action: { $0.of(14) }, embed: { .feature(14, $0) })
            scopeMiddleware(
                { (_: Int, _: FeatureAction, _: Dispatcher<FeatureAction>) in calls.append(15) },
                state: \FeaturesState.counts[15], action: { $0.of(15) }, embed: { .feature(15, $0) })
            scopeMiddleware(
                { (_: Int, _: FeatureAction, _: Dispatcher<FeatureAction>) in calls.append(16) },
                state: \FeaturesState.counts[16], action: { $0.of(16) }, embed: { .feature(16, $0) })
            scopeMiddleware(
                { (_: Int, _: FeatureAction, _: Dispatcher<FeatureAction>) in calls.append(17) },
                state: \FeaturesState.counts[17], action: { $0.of(17) }, embed: { .feature(17, $0) })
            scopeMiddleware(
                { (_: Int, _: FeatureAction, _: Dispatcher<FeatureAction>) in calls.append(18) },
                state: \FeaturesState.counts[18], action: { $0.of(18) }, embed: { .feature(18, $0) });
            { (_: FeaturesState, action: FeaturesAction, _: Dispatcher<FeaturesAction>) in if action == .other { calls.append(19) } }
        }

        await store.dispatch(.feature(3, .tap))

        #expect(calls.values.sorted() == [3])
    }

    @Test("50 statements: one feature's action calls its feature alone")
    func statements50() async {
        let calls = Recorder<Int>()
        let includeOptional = true
        let store = Store(state: FeaturesState(), reducer: featuresReducer) {
            scopeMiddleware(
                { (_: Int, _: FeatureAction, _: Dispatcher<FeatureAction>) in calls.append(0) },
                state: \FeaturesState.counts[0], action: { $0.of(0) }, embed: { .feature(0, $0) })
            scopeMiddleware(
                { (_: Int, _: FeatureAction, _: Dispatcher<FeatureAction>) in calls.append(1) },
                state: \FeaturesState.counts[1], action: { $0.of(1) }, embed: { .feature(1, $0) })
            scopeMiddleware(
                { (_: Int, _: FeatureAction, _: Dispatcher<FeatureAction>) in calls.append(2) },
                state: \FeaturesState.counts[2], action: { $0.of(2) }, embed: { .feature(2, $0) })
            scopeMiddleware(
                { (_: Int, _: FeatureAction, _: Dispatcher<FeatureAction>) in calls.append(3) },
                state: \FeaturesState.counts[3], action: { $0.of(3) }, embed: { .feature(3, $0) })
            scopeMiddleware(
                { (_: Int, _: FeatureAction, _: Dispatcher<FeatureAction>) in calls.append(4) },
                state: \FeaturesState.counts[4], action: { $0.of(4) }, embed: { .feature(4, $0) })
            scopeMiddleware(
                { (_: Int, _: FeatureAction, _: Dispatcher<FeatureAction>) in calls.append(5) },
                state: \FeaturesState.counts[5], action: { $0.of(5) }, embed: { .feature(5, $0) })
            scopeMiddleware(
                { (_: Int, _: FeatureAction, _: Dispatcher<FeatureAction>) in calls.append(6) },
                state: \FeaturesState.counts[6], action: { $0.of(6) }, embed: { .feature(6, $0) })
            scopeMiddleware(
                { (_: Int, _: FeatureAction, _: Dispatcher<FeatureAction>) in calls.append(7) },
                state: \FeaturesState.counts[7], action: { $0.of(7) }, embed: { .feature(7, $0) })
            scopeMiddleware(
                { (_: Int, _: FeatureAction, _: Dispatcher<FeatureAction>) in calls.append(8) },
                state: \FeaturesState.counts[8], action: { $0.of(8) }, embed: { .feature(8, $0) });
            { (_: FeaturesState, action: FeaturesAction, _: Dispatcher<FeaturesAction>) in if action == .other { calls.append(9) } }
            scopeMiddleware(
                { (_: Int, _: FeatureAction, _: Dispatcher<FeatureAction>) in calls.append(10) },
                state: \FeaturesState.counts[10], action: { $0.of(10) }, embed: { .feature(10, $0) })
            scopeMiddleware(
                { (_: Int, _: FeatureAction, _: Dispatcher<FeatureAction>) in calls.append(11) },
                state: \FeaturesState.counts[11], action: { $0.of(11) }, embed: { .feature(11, $0) })
            if includeOptional {
                scopeMiddleware(
                    { (_: Int, _: FeatureAction, _: Dispatcher<FeatureAction>) in calls.append(12) },
                    state: \FeaturesState.counts[12], action: { $0.of(12) }, embed: { .feature(12, $0) })
            }
            scopeMiddleware(
                { (_: Int, _: FeatureAction, _: Dispatcher<FeatureAction>) in calls.append(13) },
                state: \FeaturesState.counts[13], action: { $0.of(13) }, embed: { .feature(13, $0) })
            scopeMiddleware(
                { (_: Int, _: FeatureAction, _: Dispatcher<FeatureAction>) in calls.append(14) },
                state: \FeaturesState.counts[14], action: { $0.of(14) }, embed: { .feature(14, $0) })
            scopeMiddleware(
                { (_: Int, _: FeatureAction, _: Dispatcher<FeatureAction>) in calls.append(15) },
                state: \FeaturesState.counts[15], action: { $0.of(15) }, embed: { .feature(15, $0) })
            scopeMiddleware(
                { (_: Int, _: FeatureAction, _: Dispatcher<FeatureAction>) in calls.append(16) },
                state: \FeaturesState.counts[16], action: { $0.of(16) }, embed: { .feature(16, $0) })
            scopeMiddleware(
                { (_: Int, _: FeatureAction, _: Dispatcher<FeatureAction>) in calls.append(17) },
                state: \FeaturesState.counts[17], action: { $0.of(17) }, embed: { .feature(17, $0) })
            scopeMiddleware(
                { (_: Int, _: FeatureAction, _: Dispatcher<FeatureAction>) in calls.append(18) },
                state: \FeaturesState.counts[18], action: { $0.of(18) }, embed: { .feature(18, $0) });
            { (_: FeaturesState, action: FeaturesAction, _: Dispatcher<FeaturesAction>) in if action == .other { calls.append(19) } }
            scopeMiddleware(
                { (_: Int, _: FeatureAction, _: Dispatcher<FeatureAction>) in calls.append(20) },
                state: \FeaturesState.counts[0], action: { $0.of(0) }, embed: { .feature(0, $0) })
            scopeMiddleware(
                { (_: Int, _: FeatureAction, _: Dispatcher<FeatureAction>) in calls.append(21) },
                state: \FeaturesState.counts[1], action: { $0.of(1) }, embed: { .feature(1, $0) })
            scopeMiddleware(
                { (_: Int, _: FeatureAction, _: Dispatcher<FeatureAction>) in calls.append(22) },
                state: \FeaturesState.counts[2], action: { $0.of(2) }, embed: { .feature(2, $0) })
            scopeMiddleware(
                { (_: Int, _: FeatureAction, _: Dispatcher<FeatureAction>) in calls.append(23) },
                state: \FeaturesState.counts[3], action: { $0.of(3) }, embed: { .feature(3, $0) })
            scopeMiddleware(
                { (_: Int, _: FeatureAction, _: Dispatcher<FeatureAction>) in calls.append(24) },
                state: \FeaturesState.counts[4], action: { $0.of(4) }, embed: { .feature(4, $0) })
            scopeMiddleware(
                { (_: Int, _: FeatureAction, _: Dispatcher<FeatureAction>) in calls.append(25) },
                state: \FeaturesState.counts[5], action: { $0.of(5) }, embed: { .feature(5, $0) })
            scopeMiddleware(
                { (_: Int, _: FeatureAction, _: Dispatcher<FeatureAction>) in calls.append(26) },
                state: \FeaturesState.counts[6], action: { $0.of(6) }, embed: { .feature(6, $0) })
            scopeMiddleware(
                { (_: Int, _: FeatureAction, _: Dispatcher<FeatureAction>) in calls.append(27) },
                state: \FeaturesState.counts[7], action: { $0.of(7) }, embed: { .feature(7, $0) })
            scopeMiddleware(
                { (_: Int, _: FeatureAction, _: Dispatcher<FeatureAction>) in calls.append(28) },
                state: \FeaturesState.counts[8], action: { $0.of(8) }, embed: { .feature(8, $0) });
            { (_: FeaturesState, action: FeaturesAction, _: Dispatcher<FeaturesAction>) in if action == .other { calls.append(29) } }
            scopeMiddleware(
                { (_: Int, _: FeatureAction, _: Dispatcher<FeatureAction>) in calls.append(30) },
                state: \FeaturesState.counts[10], action: { $0.of(10) }, embed: { .feature(10, $0) })
            scopeMiddleware(
                { (_: Int, _: FeatureAction, _: Dispatcher<FeatureAction>) in calls.append(31) },
                state: \FeaturesState.counts[11], action: { $0.of(11) }, embed: { .feature(11, $0) })
            scopeMiddleware(
                { (_: Int, _: FeatureAction, _: Dispatcher<FeatureAction>) in calls.append(32) },
                state: \FeaturesState.counts[12], action: { $0.of(12) }, embed: { .feature(12, $0) })
            scopeMiddleware(
                { (_: Int, _: FeatureAction, _: Dispatcher<FeatureAction>) in calls.append(33) },
                state: \FeaturesState.counts[13], action: { $0.of(13) }, embed: { .feature(13, $0) })
            scopeMiddleware(
                { (_: Int, _: FeatureAction, _: Dispatcher<FeatureAction>) in calls.append(34) },
                state: \FeaturesState.counts[14], action: { $0.of(14) }, embed: { .feature(14, $0) })
            scopeMiddleware(
                { (_: Int, _: FeatureAction, _: Dispatcher<FeatureAction>) in calls.append(35) },
                state: \FeaturesState.counts[15], action: { $0.of(15) }, embed: { .feature(15, $0) })
            scopeMiddleware(
                { (_: Int, _: FeatureAction, _: Dispatcher<FeatureAction>) in calls.append(36) },
                state: \FeaturesState.counts[16], action: { $0.of(16) }, embed: { .feature(16, $0) })
            if includeOptional {
                scopeMiddleware(
                    { (_: Int, _: FeatureAction, _: Dispatcher<FeatureAction>) in calls.append(37) },
                    state: \FeaturesState.counts[17], action: { $0.of(17) }, embed: { .feature(17, $0) })
            }
            scopeMiddleware(
                { (_: Int, _: FeatureAction, _: Dispatcher<FeatureAction>) in calls.append(38) },
                state: \FeaturesState.counts[18], action: { $0.of(18) }, embed: { .feature(18, $0) });
            { (_: FeaturesState, action: FeaturesAction, _: Dispatcher<FeaturesAction>) in if action == .other { calls.append(39) } }
            scopeMiddleware(
                { (_: Int, _: FeatureAction, _: Dispatcher<FeatureAction>) in calls.append(40) },
                state: \FeaturesState.counts[0], action: { $0.of(0) }, embed: { .feature(0, $0) })
            scopeMiddleware(
                { (_: Int, _: FeatureAction, _: Dispatcher<FeatureAction>) in calls.append(41) },
                state: \FeaturesState.counts[1], action: { $0.of(1) }, embed: { .feature(1, $0) })
            scopeMiddleware(
                { (_: Int, _: FeatureAction, _: Dispatcher<FeatureAction>) in calls.append(42) },
                state: \FeaturesState.counts[2], action: { $0.of(2) }, embed: { .feature(2, $0) })
            scopeMiddleware(
                { (_: Int, _: FeatureAction, _: Dispatcher<FeatureAction>) in calls.append(43) },
                state: \FeaturesState.counts[3], action: { $0.of(3) }, embed: { .feature(3, $0) })
            scopeMiddleware(
                { (_: Int, _: FeatureAction, _: Dispatcher<FeatureAction>) in calls.append(44) },
                state: \FeaturesState.counts[4], action: { $0.of(4) }, embed: { .feature(4, $0) })
            scopeMiddleware(
                { (_: Int, _: FeatureAction, _: Dispatcher<FeatureAction>) in calls.append(45) },
                state: \FeaturesState.counts[5], action: { $0.of(5) }, embed: { .feature(5, $0) })
            scopeMiddleware(
                { (_: Int, _: FeatureAction, _: Dispatcher<FeatureAction>) in calls.append(46) },
                state: \FeaturesState.counts[6], action: { $0.of(6) }, embed: { .feature(6, $0) })
            scopeMiddleware(
                { (_: Int, _: FeatureAction, _: Dispatcher<FeatureAction>) in calls.append(47) },
                state: \FeaturesState.counts[7], action: { $0.of(7) }, embed: { .feature(7, $0) })
            scopeMiddleware(
                { (_: Int, _: FeatureAction, _: Dispatcher<FeatureAction>) in calls.append(48) },
                state: \FeaturesState.counts[8], action: { $0.of(8) }, embed: { .feature(8, $0) });
            { (_: FeaturesState, action: FeaturesAction, _: Dispatcher<FeaturesAction>) in if action == .other { calls.append(49) } }
        }

        await store.dispatch(.feature(3, .tap))

        #expect(calls.values.sorted() == [3, 23, 43])
    }

    @Test("100 statements: one feature's action calls its feature alone")
    func statements100() async {
        let calls = Recorder<Int>()
        let includeOptional = true
        let store = Store(state: FeaturesState(), reducer: featuresReducer) {
            scopeMiddleware(
                { (_: Int, _: FeatureAction, _: Dispatcher<FeatureAction>) in calls.append(0) },
                state: \FeaturesState.counts[0], action: { $0.of(0) }, embed: { .feature(0, $0) })
            scopeMiddleware(
                { (_: Int, _: FeatureAction, _: Dispatcher<FeatureAction>) in calls.append(1) },
                state: \FeaturesState.counts[1], action: { $0.of(1) }, embed: { .feature(1, $0) })
            scopeMiddleware(
                { (_: Int, _: FeatureAction, _: Dispatcher<FeatureAction>) in calls.append(2) },
                state: \FeaturesState.counts[2], action: { $0.of(2) }, embed: { .feature(2, $0) })
            scopeMiddleware(
                { (_: Int, _: FeatureAction, _: Dispatcher<FeatureAction>) in calls.append(3) },
                state: \FeaturesState.counts[3], action: { $0.of(3) }, embed: { .feature(3, $0) })
            scopeMiddleware(
                { (_: Int, _: FeatureAction, _: Dispatcher<FeatureAction>) in calls.append(4) },
                state: \FeaturesState.counts[4], action: { $0.of(4) }, embed: { .feature(4, $0) })
            scopeMiddleware(
                { (_: Int, _: FeatureAction, _: Dispatcher<FeatureAction>) in calls.append(5) },
                state: \FeaturesState.counts[5], action: { $0.of(5) }, embed: { .feature(5, $0) })
            scopeMiddleware(
                { (_: Int, _: FeatureAction, _: Dispatcher<FeatureAction>) in calls.append(6) },
                state: \FeaturesState.counts[6], action: { $0.of(6) }, embed: { .feature(6, $0) })
            scopeMiddleware(
                { (_: Int, _: FeatureAction, _: Dispatcher<FeatureAction>) in calls.append(7) },
                state: \FeaturesState.counts[7], action: { $0.of(7) }, embed: { .feature(7, $0) })
            scopeMiddleware(
                { (_: Int, _: FeatureAction, _: Dispatcher<FeatureAction>) in calls.append(8) },
                state: \FeaturesState.counts[8], action: { $0.of(8) }, embed: { .feature(8, $0) });
            { (_: FeaturesState, action: FeaturesAction, _: Dispatcher<FeaturesAction>) in if action == .other { calls.append(9) } }
            scopeMiddleware(
                { (_: Int, _: FeatureAction, _: Dispatcher<FeatureAction>) in calls.append(10) },
                state: \FeaturesState.counts[10], action: { $0.of(10) }, embed: { .feature(10, $0) })
            scopeMiddleware(
                { (_: Int, _: FeatureAction, _: Dispatcher<FeatureAction>) in calls.append(11) },
                state: \FeaturesState.counts[11], action: { $0.of(11) }, embed: { .feature(11, $0) })
            if includeOptional {
                scopeMiddleware(
                    { (_: Int, _: FeatureAction, _: Dispatcher<FeatureAction>) in calls.append(12) },
                    state: \FeaturesState.counts[12], action: { $0.of(12) }, embed: { .feature(12, $0) })
            }
            scopeMiddleware(
                { (_: Int, _: FeatureAction, _: Dispatcher<FeatureAction>) in calls.append(13) },
                state: \FeaturesState.counts[13], action: { $0.of(13) }, embed: { .feature(13, $0) })
            scopeMiddleware(
                { (_: Int, _: FeatureAction, _: Dispatcher<FeatureAction>) in calls.append(14) },
                state: \FeaturesState.counts[14], action: { $0.of(14) }, embed: { .feature(14, $0) })
            scopeMiddleware(
                { (_: Int, _: FeatureAction, _: Dispatcher<FeatureAction>) in calls.append(15) },
                state: \FeaturesState.counts[15], action: { $0.of(15) }, embed: { .feature(15, $0) })
            scopeMiddleware(
                { (_: Int, _: FeatureAction, _: Dispatcher<FeatureAction>) in calls.append(16) },
                state: \FeaturesState.counts[16], action: { $0.of(16) }, embed: { .feature(16, $0) })
            scopeMiddleware(
                { (_: Int, _: FeatureAction, _: Dispatcher<FeatureAction>) in calls.append(17) },
                state: \FeaturesState.counts[17], action: { $0.of(17) }, embed: { .feature(17, $0) })
            scopeMiddleware(
                { (_: Int, _: FeatureAction, _: Dispatcher<FeatureAction>) in calls.append(18) },
                state: \FeaturesState.counts[18], action: { $0.of(18) }, embed: { .feature(18, $0) });
            { (_: FeaturesState, action: FeaturesAction, _: Dispatcher<FeaturesAction>) in if action == .other { calls.append(19) } }
            scopeMiddleware(
                { (_: Int, _: FeatureAction, _: Dispatcher<FeatureAction>) in calls.append(20) },
                state: \FeaturesState.counts[0], action: { $0.of(0) }, embed: { .feature(0, $0) })
            scopeMiddleware(
                { (_: Int, _: FeatureAction, _: Dispatcher<FeatureAction>) in calls.append(21) },
                state: \FeaturesState.counts[1], action: { $0.of(1) }, embed: { .feature(1, $0) })
            scopeMiddleware(
                { (_: Int, _: FeatureAction, _: Dispatcher<FeatureAction>) in calls.append(22) },
                state: \FeaturesState.counts[2], action: { $0.of(2) }, embed: { .feature(2, $0) })
            scopeMiddleware(
                { (_: Int, _: FeatureAction, _: Dispatcher<FeatureAction>) in calls.append(23) },
                state: \FeaturesState.counts[3], action: { $0.of(3) }, embed: { .feature(3, $0) })
            scopeMiddleware(
                { (_: Int, _: FeatureAction, _: Dispatcher<FeatureAction>) in calls.append(24) },
                state: \FeaturesState.counts[4], action: { $0.of(4) }, embed: { .feature(4, $0) })
            scopeMiddleware(
                { (_: Int, _: FeatureAction, _: Dispatcher<FeatureAction>) in calls.append(25) },
                state: \FeaturesState.counts[5], action: { $0.of(5) }, embed: { .feature(5, $0) })
            scopeMiddleware(
                { (_: Int, _: FeatureAction, _: Dispatcher<FeatureAction>) in calls.append(26) },
                state: \FeaturesState.counts[6], action: { $0.of(6) }, embed: { .feature(6, $0) })
            scopeMiddleware(
                { (_: Int, _: FeatureAction, _: Dispatcher<FeatureAction>) in calls.append(27) },
                state: \FeaturesState.counts[7], action: { $0.of(7) }, embed: { .feature(7, $0) })
            scopeMiddleware(
                { (_: Int, _: FeatureAction, _: Dispatcher<FeatureAction>) in calls.append(28) },
                state: \FeaturesState.counts[8], action: { $0.of(8) }, embed: { .feature(8, $0) });
            { (_: FeaturesState, action: FeaturesAction, _: Dispatcher<FeaturesAction>) in if action == .other { calls.append(29) } }
            scopeMiddleware(
                { (_: Int, _: FeatureAction, _: Dispatcher<FeatureAction>) in calls.append(30) },
                state: \FeaturesState.counts[10], action: { $0.of(10) }, embed: { .feature(10, $0) })
            scopeMiddleware(
                { (_: Int, _: FeatureAction, _: Dispatcher<FeatureAction>) in calls.append(31) },
                state: \FeaturesState.counts[11], action: { $0.of(11) }, embed: { .feature(11, $0) })
            scopeMiddleware(
                { (_: Int, _: FeatureAction, _: Dispatcher<FeatureAction>) in calls.append(32) },
                state: \FeaturesState.counts[12], action: { $0.of(12) }, embed: { .feature(12, $0) })
            scopeMiddleware(
                { (_: Int, _: FeatureAction, _: Dispatcher<FeatureAction>) in calls.append(33) },
                state: \FeaturesState.counts[13], action: { $0.of(13) }, embed: { .feature(13, $0) })
            scopeMiddleware(
                { (_: Int, _: FeatureAction, _: Dispatcher<FeatureAction>) in calls.append(34) },
                state: \FeaturesState.counts[14], action: { $0.of(14) }, embed: { .feature(14, $0) })
            scopeMiddleware(
                { (_: Int, _: FeatureAction, _: Dispatcher<FeatureAction>) in calls.append(35) },
                state: \FeaturesState.counts[15], action: { $0.of(15) }, embed: { .feature(15, $0) })
            scopeMiddleware(
                { (_: Int, _: FeatureAction, _: Dispatcher<FeatureAction>) in calls.append(36) },
                state: \FeaturesState.counts[16], action: { $0.of(16) }, embed: { .feature(16, $0) })
            if includeOptional {
                scopeMiddleware(
                    { (_: Int, _: FeatureAction, _: Dispatcher<FeatureAction>) in calls.append(37) },
                    state: \FeaturesState.counts[17], action: { $0.of(17) }, embed: { .feature(17, $0) })
            }
            scopeMiddleware(
                { (_: Int, _: FeatureAction, _: Dispatcher<FeatureAction>) in calls.append(38) },
                state: \FeaturesState.counts[18], action: { $0.of(18) }, embed: { .feature(18, $0) });
            { (_: FeaturesState, action: FeaturesAction, _: Dispatcher<FeaturesAction>) in if action == .other { calls.append(39) } }
            scopeMiddleware(
                { (_: Int, _: FeatureAction, _: Dispatcher<FeatureAction>) in calls.append(40) },
                state: \FeaturesState.counts[0], action: { $0.of(0) }, embed: { .feature(0, $0) })
            scopeMiddleware(
                { (_: Int, _: FeatureAction, _: Dispatcher<FeatureAction>) in calls.append(41) },
                state: \FeaturesState.counts[1], action: { $0.of(1) }, embed: { .feature(1, $0) })
            scopeMiddleware(
                { (_: Int, _: FeatureAction, _: Dispatcher<FeatureAction>) in calls.append(42) },
                state: \FeaturesState.counts[2], action: { $0.of(2) }, embed: { .feature(2, $0) })
            scopeMiddleware(
                { (_: Int, _: FeatureAction, _: Dispatcher<FeatureAction>) in calls.append(43) },
                state: \FeaturesState.counts[3], action: { $0.of(3) }, embed: { .feature(3, $0) })
            scopeMiddleware(
                { (_: Int, _: FeatureAction, _: Dispatcher<FeatureAction>) in calls.append(44) },
                state: \FeaturesState.counts[4], action: { $0.of(4) }, embed: { .feature(4, $0) })
            scopeMiddleware(
                { (_: Int, _: FeatureAction, _: Dispatcher<FeatureAction>) in calls.append(45) },
                state: \FeaturesState.counts[5], action: { $0.of(5) }, embed: { .feature(5, $0) })
            scopeMiddleware(
                { (_: Int, _: FeatureAction, _: Dispatcher<FeatureAction>) in calls.append(46) },
                state: \FeaturesState.counts[6], action: { $0.of(6) }, embed: { .feature(6, $0) })
            scopeMiddleware(
                { (_: Int, _: FeatureAction, _: Dispatcher<FeatureAction>) in calls.append(47) },
                state: \FeaturesState.counts[7], action: { $0.of(7) }, embed: { .feature(7, $0) })
            scopeMiddleware(
                { (_: Int, _: FeatureAction, _: Dispatcher<FeatureAction>) in calls.append(48) },
                state: \FeaturesState.counts[8], action: { $0.of(8) }, embed: { .feature(8, $0) });
            { (_: FeaturesState, action: FeaturesAction, _: Dispatcher<FeaturesAction>) in if action == .other { calls.append(49) } }
            scopeMiddleware(
                { (_: Int, _: FeatureAction, _: Dispatcher<FeatureAction>) in calls.append(50) },
                state: \FeaturesState.counts[10], action: { $0.of(10) }, embed: { .feature(10, $0) })
            scopeMiddleware(
                { (_: Int, _: FeatureAction, _: Dispatcher<FeatureAction>) in calls.append(51) },
                state: \FeaturesState.counts[11], action: { $0.of(11) }, embed: { .feature(11, $0) })
            scopeMiddleware(
                { (_: Int, _: FeatureAction, _: Dispatcher<FeatureAction>) in calls.append(52) },
                state: \FeaturesState.counts[12], action: { $0.of(12) }, embed: { .feature(12, $0) })
            scopeMiddleware(
                { (_: Int, _: FeatureAction, _: Dispatcher<FeatureAction>) in calls.append(53) },
                state: \FeaturesState.counts[13], action: { $0.of(13) }, embed: { .feature(13, $0) })
            scopeMiddleware(
                { (_: Int, _: FeatureAction, _: Dispatcher<FeatureAction>) in calls.append(54) },
                state: \FeaturesState.counts[14], action: { $0.of(14) }, embed: { .feature(14, $0) })
            scopeMiddleware(
                { (_: Int, _: FeatureAction, _: Dispatcher<FeatureAction>) in calls.append(55) },
                state: \FeaturesState.counts[15], action: { $0.of(15) }, embed: { .feature(15, $0) })
            scopeMiddleware(
                { (_: Int, _: FeatureAction, _: Dispatcher<FeatureAction>) in calls.append(56) },
                state: \FeaturesState.counts[16], action: { $0.of(16) }, embed: { .feature(16, $0) })
            scopeMiddleware(
                { (_: Int, _: FeatureAction, _: Dispatcher<FeatureAction>) in calls.append(57) },
                state: \FeaturesState.counts[17], action: { $0.of(17) }, embed: { .feature(17, $0) })
            scopeMiddleware(
                { (_: Int, _: FeatureAction, _: Dispatcher<FeatureAction>) in calls.append(58) },
                state: \FeaturesState.counts[18], action: { $0.of(18) }, embed: { .feature(18, $0) });
            { (_: FeaturesState, action: FeaturesAction, _: Dispatcher<FeaturesAction>) in if action == .other { calls.append(59) } }
            scopeMiddleware(
                { (_: Int, _: FeatureAction, _: Dispatcher<FeatureAction>) in calls.append(60) },
                state: \FeaturesState.counts[0], action: { $0.of(0) }, embed: { .feature(0, $0) })
            scopeMiddleware(
                { (_: Int, _: FeatureAction, _: Dispatcher<FeatureAction>) in calls.append(61) },
                state: \FeaturesState.counts[1], action: { $0.of(1) }, embed: { .feature(1, $0) })
            if includeOptional {
                scopeMiddleware(
                    { (_: Int, _: FeatureAction, _: Dispatcher<FeatureAction>) in calls.append(62) },
                    state: \FeaturesState.counts[2], action: { $0.of(2) }, embed: { .feature(2, $0) })
            }
            scopeMiddleware(
                { (_: Int, _: FeatureAction, _: Dispatcher<FeatureAction>) in calls.append(63) },
                state: \FeaturesState.counts[3], action: { $0.of(3) }, embed: { .feature(3, $0) })
            scopeMiddleware(
                { (_: Int, _: FeatureAction, _: Dispatcher<FeatureAction>) in calls.append(64) },
                state: \FeaturesState.counts[4], action: { $0.of(4) }, embed: { .feature(4, $0) })
            scopeMiddleware(
                { (_: Int, _: FeatureAction, _: Dispatcher<FeatureAction>) in calls.append(65) },
                state: \FeaturesState.counts[5], action: { $0.of(5) }, embed: { .feature(5, $0) })
            scopeMiddleware(
                { (_: Int, _: FeatureAction, _: Dispatcher<FeatureAction>) in calls.append(66) },
                state: \FeaturesState.counts[6], action: { $0.of(6) }, embed: { .feature(6, $0) })
            scopeMiddleware(
                { (_: Int, _: FeatureAction, _: Dispatcher<FeatureAction>) in calls.append(67) },
                state: \FeaturesState.counts[7], action: { $0.of(7) }, embed: { .feature(7, $0) })
            scopeMiddleware(
                { (_: Int, _: FeatureAction, _: Dispatcher<FeatureAction>) in calls.append(68) },
                state: \FeaturesState.counts[8], action: { $0.of(8) }, embed: { .feature(8, $0) });
            { (_: FeaturesState, action: FeaturesAction, _: Dispatcher<FeaturesAction>) in if action == .other { calls.append(69) } }
            scopeMiddleware(
                { (_: Int, _: FeatureAction, _: Dispatcher<FeatureAction>) in calls.append(70) },
                state: \FeaturesState.counts[10], action: { $0.of(10) }, embed: { .feature(10, $0) })
            scopeMiddleware(
                { (_: Int, _: FeatureAction, _: Dispatcher<FeatureAction>) in calls.append(71) },
                state: \FeaturesState.counts[11], action: { $0.of(11) }, embed: { .feature(11, $0) })
            scopeMiddleware(
                { (_: Int, _: FeatureAction, _: Dispatcher<FeatureAction>) in calls.append(72) },
                state: \FeaturesState.counts[12], action: { $0.of(12) }, embed: { .feature(12, $0) })
            scopeMiddleware(
                { (_: Int, _: FeatureAction, _: Dispatcher<FeatureAction>) in calls.append(73) },
                state: \FeaturesState.counts[13], action: { $0.of(13) }, embed: { .feature(13, $0) })
            scopeMiddleware(
                { (_: Int, _: FeatureAction, _: Dispatcher<FeatureAction>) in calls.append(74) },
                state: \FeaturesState.counts[14], action: { $0.of(14) }, embed: { .feature(14, $0) })
            scopeMiddleware(
                { (_: Int, _: FeatureAction, _: Dispatcher<FeatureAction>) in calls.append(75) },
                state: \FeaturesState.counts[15], action: { $0.of(15) }, embed: { .feature(15, $0) })
            scopeMiddleware(
                { (_: Int, _: FeatureAction, _: Dispatcher<FeatureAction>) in calls.append(76) },
                state: \FeaturesState.counts[16], action: { $0.of(16) }, embed: { .feature(16, $0) })
            scopeMiddleware(
                { (_: Int, _: FeatureAction, _: Dispatcher<FeatureAction>) in calls.append(77) },
                state: \FeaturesState.counts[17], action: { $0.of(17) }, embed: { .feature(17, $0) })
            scopeMiddleware(
                { (_: Int, _: FeatureAction, _: Dispatcher<FeatureAction>) in calls.append(78) },
                state: \FeaturesState.counts[18], action: { $0.of(18) }, embed: { .feature(18, $0) });
            { (_: FeaturesState, action: FeaturesAction, _: Dispatcher<FeaturesAction>) in if action == .other { calls.append(79) } }
            scopeMiddleware(
                { (_: Int, _: FeatureAction, _: Dispatcher<FeatureAction>) in calls.append(80) },
                state: \FeaturesState.counts[0], action: { $0.of(0) }, embed: { .feature(0, $0) })
            scopeMiddleware(
                { (_: Int, _: FeatureAction, _: Dispatcher<FeatureAction>) in calls.append(81) },
                state: \FeaturesState.counts[1], action: { $0.of(1) }, embed: { .feature(1, $0) })
            scopeMiddleware(
                { (_: Int, _: FeatureAction, _: Dispatcher<FeatureAction>) in calls.append(82) },
                state: \FeaturesState.counts[2], action: { $0.of(2) }, embed: { .feature(2, $0) })
            scopeMiddleware(
                { (_: Int, _: FeatureAction, _: Dispatcher<FeatureAction>) in calls.append(83) },
                state: \FeaturesState.counts[3], action: { $0.of(3) }, embed: { .feature(3, $0) })
            scopeMiddleware(
                { (_: Int, _: FeatureAction, _: Dispatcher<FeatureAction>) in calls.append(84) },
                state: \FeaturesState.counts[4], action: { $0.of(4) }, embed: { .feature(4, $0) })
            scopeMiddleware(
                { (_: Int, _: FeatureAction, _: Dispatcher<FeatureAction>) in calls.append(85) },
                state: \FeaturesState.counts[5], action: { $0.of(5) }, embed: { .feature(5, $0) })
            scopeMiddleware(
                { (_: Int, _: FeatureAction, _: Dispatcher<FeatureAction>) in calls.append(86) },
                state: \FeaturesState.counts[6], action: { $0.of(6) }, embed: { .feature(6, $0) })
            if includeOptional {
                scopeMiddleware(
                    { (_: Int, _: FeatureAction, _: Dispatcher<FeatureAction>) in calls.append(87) },
                    state: \FeaturesState.counts[7], action: { $0.of(7) }, embed: { .feature(7, $0) })
            }
            scopeMiddleware(
                { (_: Int, _: FeatureAction, _: Dispatcher<FeatureAction>) in calls.append(88) },
                state: \FeaturesState.counts[8], action: { $0.of(8) }, embed: { .feature(8, $0) });
            { (_: FeaturesState, action: FeaturesAction, _: Dispatcher<FeaturesAction>) in if action == .other { calls.append(89) } }
            scopeMiddleware(
                { (_: Int, _: FeatureAction, _: Dispatcher<FeatureAction>) in calls.append(90) },
                state: \FeaturesState.counts[10], action: { $0.of(10) }, embed: { .feature(10, $0) })
            scopeMiddleware(
                { (_: Int, _: FeatureAction, _: Dispatcher<FeatureAction>) in calls.append(91) },
                state: \FeaturesState.counts[11], action: { $0.of(11) }, embed: { .feature(11, $0) })
            scopeMiddleware(
                { (_: Int, _: FeatureAction, _: Dispatcher<FeatureAction>) in calls.append(92) },
                state: \FeaturesState.counts[12], action: { $0.of(12) }, embed: { .feature(12, $0) })
            scopeMiddleware(
                { (_: Int, _: FeatureAction, _: Dispatcher<FeatureAction>) in calls.append(93) },
                state: \FeaturesState.counts[13], action: { $0.of(13) }, embed: { .feature(13, $0) })
            scopeMiddleware(
                { (_: Int, _: FeatureAction, _: Dispatcher<FeatureAction>) in calls.append(94) },
                state: \FeaturesState.counts[14], action: { $0.of(14) }, embed: { .feature(14, $0) })
            scopeMiddleware(
                { (_: Int, _: FeatureAction, _: Dispatcher<FeatureAction>) in calls.append(95) },
                state: \FeaturesState.counts[15], action: { $0.of(15) }, embed: { .feature(15, $0) })
            scopeMiddleware(
                { (_: Int, _: FeatureAction, _: Dispatcher<FeatureAction>) in calls.append(96) },
                state: \FeaturesState.counts[16], action: { $0.of(16) }, embed: { .feature(16, $0) })
            scopeMiddleware(
                { (_: Int, _: FeatureAction, _: Dispatcher<FeatureAction>) in calls.append(97) },
                state: \FeaturesState.counts[17], action: { $0.of(17) }, embed: { .feature(17, $0) })
            scopeMiddleware(
                { (_: Int, _: FeatureAction, _: Dispatcher<FeatureAction>) in calls.append(98) },
                state: \FeaturesState.counts[18], action: { $0.of(18) }, embed: { .feature(18, $0) });
            { (_: FeaturesState, action: FeaturesAction, _: Dispatcher<FeaturesAction>) in if action == .other { calls.append(99) } }
        }

        await store.dispatch(.feature(3, .tap))

        #expect(calls.values.sorted() == [3, 23, 43, 63, 83])
    }
}
