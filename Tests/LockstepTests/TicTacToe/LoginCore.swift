import Lockstep

struct LoginState: Equatable, Sendable {
    var alert: AlertState<Never>?
    var email = ""
    var isFormValid = false
    var isLoginRequestInFlight = false
    var password = ""
    var twoFactor: TwoFactorState?
}

enum LoginAction: Equatable, Sendable {
    case alert(PresentationAction<Never>)
    case loginResponse(Result<AuthenticationResponse, AuthenticationError>)
    case twoFactor(PresentationAction<TwoFactorAction>)
    case view(View)

    enum View: Equatable, Sendable {
        case emailChanged(String)
        case passwordChanged(String)
        case loginButtonTapped
    }

    var alert: PresentationAction<Never>? {
        if case .alert(let action) = self { action } else { nil }
    }
    var twoFactor: PresentationAction<TwoFactorAction>? {
        if case .twoFactor(let action) = self { action } else { nil }
    }
}

let loginFeature = Feature<LoginState, LoginAction, AuthenticationClient>(
    reducer: { state, action in
        switch action {
        case .alert, .twoFactor:
            break
        case .loginResponse(.success(let response)):
            state.isLoginRequestInFlight = false
            if response.twoFactorRequired {
                state.twoFactor = TwoFactorState(token: response.token)
            }
        case .loginResponse(.failure):
            state.alert = AlertState { "Invalid email or password" }
            state.isLoginRequestInFlight = false
        case .view(.emailChanged(let email)):
            state.email = email
            state.isFormValid = !state.email.isEmpty && !state.password.isEmpty
        case .view(.passwordChanged(let password)):
            state.password = password
            state.isFormValid = !state.email.isEmpty && !state.password.isEmpty
        case .view(.loginButtonTapped):
            state.isLoginRequestInFlight = true
        }
    }
) {
    { state, action, authentication, dispatch in
        guard action == .view(.loginButtonTapped) else { return }
        await dispatch(.loginResponse(await authentication.login(LoginRequest(email: state.email, password: state.password))))
    } as Middleware<LoginState, LoginAction, AuthenticationClient>
}
.ifLet(state: \.alert, action: { $0.alert })
.ifLet(state: \.twoFactor, action: { $0.twoFactor }, embed: LoginAction.twoFactor) { twoFactorFeature }
