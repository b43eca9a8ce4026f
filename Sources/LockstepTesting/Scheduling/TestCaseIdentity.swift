import Lockstep
#if canImport(Testing)
import Testing
#endif

/// Identifies the Swift Testing test case running now among the cases of its test, so that the
/// cases of a parameterized test, which run in parallel, each get their own work scope.
///
/// Swift Testing gives a case no public identity: its public interface has `Test.Case.current`
/// and `isParameterized`, nothing more (`id` and `arguments` are SPI for tools). A case is told
/// apart by its description, `String(describing:)`, which holds its arguments and their
/// discriminator; the toolkit reads none of its fields by name. The suite's
/// `TestCaseIdentityTests` fail if a toolchain's case stops describing its arguments so (equal
/// arguments included), before the cases of a test could share one scope unnoticed.
enum TestCaseIdentity {
    /// Installs the identification in the core, once.
    static let installed: Void = {
        TestCaseIdentifier.install { TestCaseIdentity.current }
    }()

    /// The current test case's description, or `nil` outside a parameterized test case.
    static var current: String? {
        #if canImport(Testing)
        guard let testCase = Test.Case.current, testCase.isParameterized else { return nil }
        return String(describing: testCase)
        #else
        return nil
        #endif
    }
}
