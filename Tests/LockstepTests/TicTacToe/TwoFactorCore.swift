import Lockstep

struct TwoFactorState: Equatable, Sendable {
    var alert: AlertState<Never>?
    var code = ""
    var isFormValid = false
    var isTwoFactorRequestInFlight = false
    let token: String
}

enum TwoFactorAction: Equatable, Sendable {
    case alert(PresentationAction<Never>)
    case codeChanged(String)
    case submitButtonTapped
    case twoFactorResponse(Result<AuthenticationResponse, AuthenticationError>)

    var alert: PresentationAction<Never>? {
        if case .alert(let action) = self { action } else { nil }
    }
}

let twoFactorFeature = Feature<TwoFactorState, TwoFactorAction, AuthenticationClient>(
    reducer: { state, action in
        switch action {
        case .alert:
            break
        case .codeChanged(let code):
            state.code = code
            state.isFormValid = code.count >= 4
        case .submitButtonTapped:
            state.isTwoFactorRequestInFlight = true
        case .twoFactorResponse(.failure):
            state.alert = AlertState { "Invalid code" }
            state.isTwoFactorRequestInFlight = false
        case .twoFactorResponse(.success):
            state.isTwoFactorRequestInFlight = false
        }
    }
) {
    { state, action, authentication, dispatch in
        guard action == .submitButtonTapped else { return }
        await dispatch(.twoFactorResponse(await authentication.twoFactor(TwoFactorRequest(code: state.code, token: state.token))))
    } as Middleware<TwoFactorState, TwoFactorAction, AuthenticationClient>
}
.ifLet(state: \.alert, action: { $0.alert })
