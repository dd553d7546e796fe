import Localization

/// A stand-in `Localizing` for the UI tests until the localization tables merge: the English
/// meanings of Localizations/KEYS.md and a French translation, with a tiny formatter
/// (`%d`, `%@`, `%.1f`, `%%`) and English/French one/other plurals.
struct StubStrings: Localizing {
    let locale: String

    static let en: [String: String] = [
        "selfie_capture_loading_title": "Getting ready",
        "selfie_capture_loading_model": "Loading the face model…",
        "selfie_capture_loading_camera": "Opening the camera…",
        "selfie_capture_loading_elapsed": "%.1f s",
        "selfie_capture_loading_model_ready": "Face model ready in %.2f s",
        "selfie_capture_instructions_title": "Record a short selfie video",
        "selfie_capture_instructions_subtitle": "It takes a few seconds. For the best result:",
        "selfie_capture_instruction_face_visible": "Keep your face straight and fully visible",
        "selfie_capture_instruction_neutral_expression": "Keep a neutral expression",
        "selfie_capture_instruction_good_light": "Find good, even light",
        "selfie_capture_continue": "Continue",
        "selfie_capture_permission_title": "Camera access",
        "selfie_capture_permission_explanation": "To record your selfie video, this app needs to use your camera. Nothing is sent anywhere: the video is saved on this computer.",
        "selfie_capture_permission_request": "Request permission",
        "selfie_capture_permission_denied_title": "Camera access denied",
        "selfie_capture_permission_denied_help": "This app cannot open %@. Add your user to the 'video' group (sudo usermod -aG video $USER), log in again, then try again.",
        "selfie_capture_permission_retry": "Try again",
        "selfie_capture_capture_title": "Place your face in the oval",
        "selfie_capture_recording_duration.one": "The recording will last %d second",
        "selfie_capture_recording_duration.other": "The recording will last %d seconds",
        "selfie_capture_start": "Start",
        "selfie_capture_hint_no_face": "No face found",
        "selfie_capture_hint_multiple_faces": "Only one face, please",
        "selfie_capture_hint_get_closer": "Move closer",
        "selfie_capture_hint_get_further": "Move back a little",
        "selfie_capture_hint_move_left": "Move left",
        "selfie_capture_hint_move_right": "Move right",
        "selfie_capture_hint_move_up": "Move up",
        "selfie_capture_hint_move_down": "Move down",
        "selfie_capture_hint_turn_head_less": "Face the camera",
        "selfie_capture_hint_level_head": "Keep your head level",
        "selfie_capture_hint_too_dark": "Too dark: find more light",
        "selfie_capture_hint_too_bright": "Too bright: avoid direct light",
        "selfie_capture_hint_too_blurry": "Image blurry: hold still",
        "selfie_capture_hint_open_eyes": "Keep your eyes open",
        "selfie_capture_hint_hold_still": "Hold still",
        "selfie_capture_countdown.one": "Recording in %d second",
        "selfie_capture_countdown.other": "Recording in %d seconds",
        "selfie_capture_recording": "Recording… keep still",
        "selfie_capture_recording_progress": "%d%%",
        "selfie_capture_restarted": "Capture restarted: %@",
        "selfie_capture_result_title": "Capture complete",
        "selfie_capture_result_saved": "Saved to %@",
        "selfie_capture_result_duration": "Duration: %.1f s",
        "selfie_capture_result_frames.one": "%d frame recorded",
        "selfie_capture_result_frames.other": "%d frames recorded",
        "selfie_capture_result_collected.one": "%d frame collected",
        "selfie_capture_result_collected.other": "%d frames collected",
        "selfie_capture_result_exit": "Press Enter to finish",
        "selfie_capture_failed_title": "Capture failed",
        "selfie_capture_failed_camera": "The camera could not be used.",
        "selfie_capture_failed_video": "The video could not be read.",
        "selfie_capture_failed_help_camera": "Check that the camera is connected and not used by another program, then try again.",
        "selfie_capture_failed_help_face": "Find good light and keep your face in the oval, then try again.",
        "selfie_capture_waiting_video": "Waiting for the video… (%d s)",
        "selfie_capture_loading_video": "Opening the video…",
        "selfie_capture_failed_timeout": "The capture took too long.",
        "selfie_capture_failed_source_ended": "The video ended before the capture was complete.",
        "selfie_capture_failed_reason": "Reason: %@",
        "selfie_capture_failed_attempt": "Attempt %d of %d",
        "selfie_capture_failed_try_again": "Try again",
        "selfie_capture_failed_keys_help": "Enter: try again · q, Esc: exit",
        "selfie_capture_too_small": "Enlarge the window to at least %d×%d",
        "selfie_capture_key_start": "s: start",
        "selfie_capture_key_back": "Esc: back",
        "selfie_capture_key_quit": "q: quit",
        "selfie_capture_key_cancel_delete": "q: cancel and delete",
        "selfie_capture_key_continue": "Enter: continue",
        "selfie_capture_result_folder": "Folder: %@",
        "selfie_capture_result_files": "Files: %@",
    ]

    static let fr: [String: String] = [
        "selfie_capture_loading_title": "Préparation",
        "selfie_capture_loading_model": "Chargement du modèle de visage…",
        "selfie_capture_loading_camera": "Ouverture de la caméra…",
        "selfie_capture_loading_elapsed": "%.1f s",
        "selfie_capture_loading_model_ready": "Modèle de visage prêt en %.2f s",
        "selfie_capture_instructions_title": "Enregistrez une courte vidéo selfie",
        "selfie_capture_instructions_subtitle": "Cela prend quelques secondes. Pour un meilleur résultat :",
        "selfie_capture_instruction_face_visible": "Gardez le visage droit et entièrement visible",
        "selfie_capture_instruction_neutral_expression": "Gardez une expression neutre",
        "selfie_capture_instruction_good_light": "Trouvez une lumière bonne et uniforme",
        "selfie_capture_continue": "Continuer",
        "selfie_capture_permission_title": "Accès à la caméra",
        "selfie_capture_permission_explanation": "Pour enregistrer votre vidéo selfie, cette application doit utiliser votre caméra. Rien n’est envoyé : la vidéo reste sur cet ordinateur.",
        "selfie_capture_permission_request": "Demander l’autorisation",
        "selfie_capture_permission_denied_title": "Accès à la caméra refusé",
        "selfie_capture_permission_denied_help": "Impossible d’ouvrir %@. Ajoutez votre utilisateur au groupe « video » (sudo usermod -aG video $USER), reconnectez-vous, puis réessayez.",
        "selfie_capture_permission_retry": "Réessayer",
        "selfie_capture_capture_title": "Placez votre visage dans l’ovale",
        "selfie_capture_recording_duration.one": "L’enregistrement durera %d seconde",
        "selfie_capture_recording_duration.other": "L’enregistrement durera %d secondes",
        "selfie_capture_start": "Démarrer",
        "selfie_capture_hint_no_face": "Aucun visage détecté",
        "selfie_capture_hint_multiple_faces": "Un seul visage, s’il vous plaît",
        "selfie_capture_hint_get_closer": "Rapprochez-vous",
        "selfie_capture_hint_get_further": "Reculez un peu",
        "selfie_capture_hint_move_left": "Déplacez-vous vers la gauche",
        "selfie_capture_hint_move_right": "Déplacez-vous vers la droite",
        "selfie_capture_hint_move_up": "Montez un peu",
        "selfie_capture_hint_move_down": "Descendez un peu",
        "selfie_capture_hint_turn_head_less": "Regardez la caméra",
        "selfie_capture_hint_level_head": "Gardez la tête droite",
        "selfie_capture_hint_too_dark": "Trop sombre : cherchez plus de lumière",
        "selfie_capture_hint_too_bright": "Trop clair : évitez la lumière directe",
        "selfie_capture_hint_too_blurry": "Image floue : ne bougez plus",
        "selfie_capture_hint_open_eyes": "Gardez les yeux ouverts",
        "selfie_capture_hint_hold_still": "Ne bougez plus",
        "selfie_capture_countdown.one": "Enregistrement dans %d seconde",
        "selfie_capture_countdown.other": "Enregistrement dans %d secondes",
        "selfie_capture_recording": "Enregistrement… ne bougez pas",
        "selfie_capture_recording_progress": "%d %%",
        "selfie_capture_restarted": "Capture relancée : %@",
        "selfie_capture_result_title": "Capture terminée",
        "selfie_capture_result_saved": "Enregistré dans %@",
        "selfie_capture_result_duration": "Durée : %.1f s",
        "selfie_capture_result_frames.one": "%d image enregistrée",
        "selfie_capture_result_frames.other": "%d images enregistrées",
        "selfie_capture_result_collected.one": "%d image conservée",
        "selfie_capture_result_collected.other": "%d images conservées",
        "selfie_capture_result_exit": "Appuyez sur Entrée pour terminer",
        "selfie_capture_failed_title": "Échec de la capture",
        "selfie_capture_failed_camera": "La caméra n’a pas pu être utilisée.",
        "selfie_capture_failed_video": "La vidéo n’a pas pu être lue.",
        "selfie_capture_failed_help_camera": "Vérifiez que la caméra est branchée et qu’aucun autre programme ne l’utilise, puis réessayez.",
        "selfie_capture_failed_help_face": "Trouvez une bonne lumière et gardez le visage dans l’ovale, puis réessayez.",
        "selfie_capture_waiting_video": "En attente de la vidéo… (%d s)",
        "selfie_capture_loading_video": "Ouverture de la vidéo…",
        "selfie_capture_failed_timeout": "La capture a pris trop de temps.",
        "selfie_capture_failed_source_ended": "La vidéo s’est terminée avant la fin de la capture.",
        "selfie_capture_failed_reason": "Raison : %@",
        "selfie_capture_failed_attempt": "Tentative %d sur %d",
        "selfie_capture_failed_try_again": "Réessayer",
        "selfie_capture_failed_keys_help": "Entrée : réessayer · q, Échap : quitter",
        "selfie_capture_too_small": "Agrandissez la fenêtre à au moins %d×%d",
        "selfie_capture_key_start": "s : démarrer",
        "selfie_capture_key_back": "Échap : retour",
        "selfie_capture_key_quit": "q : quitter",
        "selfie_capture_key_cancel_delete": "q : annuler et supprimer",
        "selfie_capture_key_continue": "Entrée : continuer",
        "selfie_capture_result_folder": "Dossier : %@",
        "selfie_capture_result_files": "Fichiers : %@",
    ]

    func text(_ key: String, _ args: [FormatArgument]) -> String {
        let table = locale.hasPrefix("fr") ? Self.fr : Self.en
        var template = table[key]
        if template == nil, case .int(let n)? = args.first {
            let one = locale.hasPrefix("fr") ? (n == 0 || n == 1) : n == 1
            template = table[key + (one ? ".one" : ".other")]
        }
        guard let t = template else { return key }
        var out = "", i = t.startIndex, argIndex = 0
        while i < t.endIndex {
            let ch = t[i]
            guard ch == "%" else { out.append(ch); i = t.index(after: i); continue }
            let rest = t[t.index(after: i)...]
            if rest.hasPrefix("%") { out.append("%"); i = t.index(i, offsetBy: 2); continue }
            let arg = argIndex < args.count ? args[argIndex] : nil
            argIndex += 1
            if rest.hasPrefix(".1f") {
                if case .double(let d)? = arg { out += String(format1: d) }
                i = t.index(i, offsetBy: 4)
            } else {
                switch arg {
                case .int(let n)?: out += String(n)
                case .string(let s)?: out += s
                case .double(let d)?: out += String(d)
                case nil: break
                }
                i = t.index(i, offsetBy: 2)
            }
        }
        return out
    }
}

extension String {
    /// One decimal, without Foundation.
    init(format1 d: Double) {
        let tenths = Int((d * 10).rounded())
        self = "\(tenths / 10).\(abs(tenths % 10))"
    }
}
