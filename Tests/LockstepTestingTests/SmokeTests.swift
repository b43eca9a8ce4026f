import LockstepTesting
import Testing

@Test func lockstepTestingLinks() {
    #expect(isTesting)
}
