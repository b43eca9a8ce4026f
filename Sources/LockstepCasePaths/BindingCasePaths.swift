import CasePaths
import Lockstep

extension BindingAction: CasePathable {
    /// The case paths of a binding action: one per field of the state, so that
    /// `\.binding.title` names the binding of `title` (`.binding(.set(\.title, …))`).
    ///
    /// ```swift
    /// await store.send(\.binding.title, "Standup") { $0.title = "Standup" }
    /// ```
    @dynamicMemberLookup
    public struct AllCasePaths: Sendable {
        /// The case path of the binding of the field at `keyPath`.
        ///
        /// - Parameter keyPath: The field.
        public subscript<Value: Equatable & Sendable>(
            dynamicMember keyPath: WritableKeyPath<Root, Value> & Sendable
        ) -> AnyCasePath<BindingAction, Value> {
            AnyCasePath(
                embed: { .set(keyPath, $0) },
                extract: { $0.value(at: keyPath) })
        }
    }

    /// The case paths of a binding action.
    public static var allCasePaths: AllCasePaths { AllCasePaths() }
}
