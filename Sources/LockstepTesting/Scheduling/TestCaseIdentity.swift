import Lockstep
#if canImport(Testing)
import Testing
#endif

/// Identifies the Swift Testing test case running now among the cases of its test, so that the
/// cases of a parameterized test, which run in parallel, each get their own work scope.
///
/// Swift Testing does not make a case's identity public; its arguments' identifiers and its
/// discriminator are read by reflection. Should their shape change, every case of a test shares
/// one scope again, as a test without arguments has.
enum TestCaseIdentity {
    /// Installs the identification in the core, once.
    static let installed: Void = {
        TestCaseIdentifier.install { TestCaseIdentity.current }
    }()

    /// The current test case's arguments and discriminator, or `nil` outside a parameterized
    /// test case.
    static var current: String? {
        #if canImport(Testing)
        guard let testCase = Test.Case.current, testCase.isParameterized else { return nil }
        return identity(of: testCase)
        #else
        return nil
        #endif
    }

    /// "[id, id]#discriminator", from the case's kind: `parameterized(arguments:discriminator:…)`.
    private static func identity(of testCase: Any) -> String? {
        guard let kind = Mirror(reflecting: testCase).children.first(where: { $0.label == "_kind" })?.value,
              let payload = Mirror(reflecting: kind).children.first?.value
        else { return nil }
        var parts: [String] = []
        for child in Mirror(reflecting: payload).children {
            switch child.label {
            case "arguments":
                let ids = Mirror(reflecting: child.value).children.map { argument in
                    Mirror(reflecting: argument.value).children
                        .first { $0.label == "id" }
                        .map { String(describing: $0.value) } ?? String(describing: argument.value)
                }
                parts.append("[" + ids.joined(separator: ", ") + "]")
            case "discriminator":
                parts.append("#\(child.value)")
            default:
                continue
            }
        }
        return parts.isEmpty ? String(describing: kind) : parts.joined()
    }
}
