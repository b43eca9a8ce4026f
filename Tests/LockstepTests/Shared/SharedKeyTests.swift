import Lockstep
import LockstepTesting
import Testing

// `@Shared` declared with a key: every holder of a key with the same id shares one value, and
// each Swift Testing test has its own values.

private struct CounterState: Equatable, Sendable {
    @Shared(.inMemory("SharedKeyTests.count")) var count = 0
}

private struct BadgeState: Equatable, Sendable {
    @Shared(.inMemory("SharedKeyTests.count")) var count = 0
}

private enum CounterAction: Equatable, Sendable {
    case increment
}

extension SharedKey where Self == InMemoryKey<[String]>.Default {
    fileprivate static var recentSearches: Self { Self[.inMemory("SharedKeyTests.recent"), default: ["swift"]] }
}

@Suite("Shared values named by a key")
struct SharedKeyTests {
    @Test("Two states that declare the same key share one value; a write through one is read through the other")
    func sameKeySameValue() {
        let counter = CounterState()
        let badge = BadgeState()
        counter.count = 3
        #expect(badge.count == 3)
        badge.$count.withLock { $0 += 1 }
        #expect(counter.count == 4)
        #expect(counter.$count.sharesStorage(with: badge.$count))
    }

    @Test("The first holder's default starts the value; a later holder's default is not used")
    func firstDefaultWins() {
        @Shared(.inMemory("SharedKeyTests.first")) var first = 10
        @Shared(.inMemory("SharedKeyTests.first")) var second = 99
        #expect(first == 10)
        #expect(second == 10)
        @Shared(.inMemory("SharedKeyTests.other")) var other = 99
        #expect(other == 99)
    }

    @Test("A key with a default needs none at the declaration, and names the same value as the key it wraps")
    func keyWithADefault() {
        @Shared(.recentSearches) var recent
        #expect(recent == ["swift"])
        @Shared(.inMemory("SharedKeyTests.recent")) var same: [String] = []
        same.append("lockstep")
        #expect(recent == ["swift", "lockstep"])
    }

    @Test("Each test has its own values: work outside the test's task reads the process's value, not the test's")
    func eachTestHasItsOwnValues() async {
        @Shared(.inMemory("SharedKeyTests.scoped")) var scoped = 1
        scoped = 42
        let outside = await Task.detached {
            @Shared(.inMemory("SharedKeyTests.scoped")) var scoped = 1
            return scoped
        }.value
        #expect(outside == 1)
        #expect(scoped == 42)
    }

    @Test("A key that already names a value of another type is reported, and the new holder gets a value of its own")
    func anotherTypeIsReported() {
        @Shared(.inMemory("SharedKeyTests.typed")) var number = 1
        withKnownIssue {
            @Shared(.inMemory("SharedKeyTests.typed")) var text = "one"
            #expect(text == "one")
        } matching: { issue in
            issue.description.contains("already names a value of another type")
        }
        #expect(number == 1)
    }

    @Test("A storage's save is told of every write, in order")
    func savesInOrder() {
        let key = RecordingKey(id: "SharedKeyTests.recorded")
        @Shared(key) var value = 0
        value = 1
        $value.withLock { $0 += 1 }
        value = 5
        #expect(key.saved.withLock { $0 } == [1, 2, 5])
    }

    @Test("A value the storage holds starts the value instead of the default")
    func storageValueWins() {
        let key = RecordingKey(id: "SharedKeyTests.loaded", stored: 7)
        @Shared(key) var value = 0
        #expect(value == 7)
    }

    @Test("A test store asserts a change to a keyed value through the state that holds it")
    @MainActor
    func testStoreAssertsAKeyedValue() async {
        let store = TestStore(state: CounterState(), reducer: { (state: inout CounterState, _: CounterAction) in
            state.count += 1
        })
        await store.send(.increment) { $0.count = 1 }
        await store.send(.increment) { $0.count = 2 }
        #expect(BadgeState().count == 2)
    }
}

extension SharedKey where Self == InMemoryKey<[String]>.Default {
    fileprivate static var titles: Self { Self[.inMemory("SharedKeyTests.titles"), default: []] }
}

private struct TitlesState: Equatable, Sendable {
    @Shared(.titles) var titles
    var draft = ""
}

private enum TitlesAction: Equatable, Sendable {
    case draftChanged(String)
    case addTapped
}

@Suite("A keyed value in a test store, as TCA tests write it")
struct SharedKeyTestStoreTests {
    @Test("A reducer's write to a keyed value is asserted with $0.$titles.withLock; the test's own @Shared of the key sees it")
    @MainActor
    func assertedWithWithLock() async {
        @Shared(.titles) var titles = ["Seeded"]
        let store = TestStore(state: TitlesState(), reducer: { (state: inout TitlesState, action: TitlesAction) in
            switch action {
            case .draftChanged(let draft): state.draft = draft
            case .addTapped:
                state.$titles.withLock { $0.append(state.draft) }
                state.draft = ""
            }
        })
        await store.send(.draftChanged("Design")) { $0.draft = "Design" }
        await store.send(.addTapped) {
            $0.draft = ""
            $0.$titles.withLock { $0 = ["Seeded", "Design"] }
        }
        #expect(titles == ["Seeded", "Design"])
    }
}

/// A key whose storage records what it is asked to save.
private struct RecordingKey: SharedKey {
    let id: String
    var stored: Int?
    let saved = Lock<[Int]>([])

    func load() -> Int? { stored }
    func save(_ value: Int) { saved.withLock { $0.append(value) } }
}
