@testable import LockstepTesting
import Lockstep
import Testing

// The toolkit tells the cases of a parameterized test apart by their description, as Swift
// Testing has no public identity for a case. These tests fail if a toolchain changes what a
// case's description holds so that two cases of one test describe themselves the same way.

@Suite("Test case identity")
struct TestCaseIdentityTests {
    /// The identities seen by the cases of `eachCaseHasAnIdentityOfItsOwn`, kept until the process ends.
    private static let seen = Lock<[String]>([])

    @Test("Each case of a parameterized test, equal arguments included, has an identity of its own", arguments: [7, 7, 8, 9, 9])
    func eachCaseHasAnIdentityOfItsOwn(value: Int) async throws {
        let identity = try #require(TestCaseIdentity.current)
        #expect(identity.contains("\(value)"))
        let shared = Self.seen.withLock { seen in
            defer { seen.append(identity) }
            return seen.contains(identity)
        }
        #expect(!shared)
    }

    @Test("A case's identity is the same in its child tasks", arguments: ["a", "b"])
    func identityIsStableWithinACase(name: String) async throws {
        let identity = try #require(TestCaseIdentity.current)
        async let child = TestCaseIdentity.current
        let inGroup = await withTaskGroup(of: String?.self) { group in
            group.addTask { TestCaseIdentity.current }
            return await group.next() ?? nil
        }
        #expect(await child == identity)
        #expect(inGroup == identity)
    }

    @Test("A test without arguments has no case identity")
    func plainTestHasNoIdentity() {
        #expect(TestCaseIdentity.current == nil)
    }
}
