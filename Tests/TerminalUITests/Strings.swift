import Localization
import TestSupport

/// The project's real English and French tables (Localizations/), as the app loads them.
enum ProjectStrings {
    static let folder = TestSupport.projectRoot().appendingPathComponent("Localizations").path
    static func localizer(_ locale: String) -> any Localizing {
        Localizer(locale: locale, folders: [folder], inputs: .current())
    }
    static let en = localizer("en")
    static let fr = localizer("fr")
    static func of(_ locale: String) -> any Localizing { locale.hasPrefix("fr") ? fr : en }
}
