import LogInspector
import Testing

@Suite("State changes and diffs")
struct StateDiffTests {
    let before: JSONValue = .object([
        "isLoading": .bool(true), "title": .string("Week"),
        "shifts": .array([.object(["id": .int(1)]), .object(["id": .int(2)])]),
    ])

    @Test("Changes name each path that changed, members and elements one by one")
    func changes() {
        let after: JSONValue = .object([
            "isLoading": .bool(false), "title": .string("Week"), "error": .string("offline"),
            "shifts": .array([.object(["id": .int(1)]), .object(["id": .int(3)]), .object(["id": .int(4)])]),
        ])
        let changes = stateChanges(from: before, to: after)
        #expect(changes == [
            StateChange(path: [.key("error")], old: nil, new: .string("offline")),
            StateChange(path: [.key("isLoading")], old: .bool(true), new: .bool(false)),
            StateChange(path: [.key("shifts"), .index(1), .key("id")], old: .int(2), new: .int(3)),
            StateChange(path: [.key("shifts"), .index(2)], old: nil, new: .object(["id": .int(4)])),
        ])
        #expect(summarize(changes) == #"error: nil → "offline", isLoading: true → false, shifts[1].id: 2 → 3 and 1 more"#)
        #expect(stateChanges(from: before, to: before).isEmpty)
        #expect(summarize([]) == "no change")
    }

    @Test("Elements added to or removed from an array are counted in one part, removals from the last")
    func arrayCounts() {
        let after: JSONValue = .object(["isLoading": .bool(true), "title": .string("Week"), "shifts": .array([])])
        let changes = stateChanges(from: before, to: after)
        #expect(changes.map(\.path) == [[.key("shifts"), .index(1)], [.key("shifts"), .index(0)]])
        #expect(summarize(changes) == "shifts: −2 elements")
        #expect(summarize(stateChanges(from: after, to: before)) == "shifts: +2 elements")
    }

    @Test("The diff is swift-custom-dump's, with the changed lines marked - and +")
    func diffFormat() throws {
        var after = before
        if case .object(var members) = after {
            members["isLoading"] = .bool(false)
            after = .object(members)
        }
        let diff = try #require(stateDiff(before, after))
        #expect(diff.contains("-   \"isLoading\": true,"))
        #expect(diff.contains("+   \"isLoading\": false,"))
        #expect(!diff.contains("\"id\""), "unchanged members are folded: \(diff)")
        #expect(stateDiff(before, before) == nil)
    }

    @Test("An action's name is its chain of enum cases, as Codable writes them")
    func actionNames() {
        let loaded: JSONValue = .object(["today": .object(["_0": .object([
            "shiftsLoaded": .object(["_0": .object(["success": .object(["_0": .array([])])])]),
        ])])])
        #expect(actionName(loaded) == "today.shiftsLoaded.success")
        #expect(actionName(.object(["onAppear": .object([:])])) == "onAppear")
        #expect(actionName(.object(["setTitle": .object(["title": .string("x")])])) == "setTitle")
        #expect(actionName(.string("refresh")) == "refresh")
    }
}
