import PhotoTimer

/// The remote's page: plain HTML, CSS and JavaScript compiled into the binary (no CDN, no
/// framework, no build step), for a phone held upright and usable on a desktop browser.
///
/// It draws the program's presentation (the count, the status, the checklist, the actions,
/// the photo's summary) exactly as the screen does, shows the preview from the WebSocket, and
/// posts the intents. It reconnects by itself and says why it cannot show the camera
/// ("reconnecting…", "camera busy", "the program was closed"). Its state is readable by
/// tests as `window.phototimer`.
package enum RemotePage {
  /// The countdown choices, from the table every front end uses.
  private static let countdownButtons = PhotoTimerPresentation.countdownChoices.map {
    #"<button data-seconds="\#($0)" role="radio">\#(PhotoTimerPresentation.countdownLabel($0))</button>"#
  }.joined(separator: "\n          ")

  /// A button per intent a phone can send, titled from the same table (the primary one, start
  /// or take it now, coloured).
  private static let actionButtons = RemoteIntent.actions.filter { $0 != .autoStart }.map {
    action in
    let primary = [.start, .takeNow, .keep].contains(action) ? #" class="primary""# : ""
    // NB: a booth's Keep and Retake show only while a shot is under review; Print only where
    // the program prints, Resume only while the printer is stopped.
    let hidden = [.keep, .retake, .print, .resume].contains(action) ? " hidden" : ""
    return
      #"<button id="\#(action.rawValue)"\#(primary) data-intent="\#(action.rawValue)"\#(hidden) disabled>"#
      + "\(action.title)</button>"
  }.joined(separator: "\n          ")

  /// The page.
  package static let html = #"""
    <!doctype html>
    <html lang="en">
    <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1, viewport-fit=cover">
    <meta name="referrer" content="no-referrer">
    <title>phototimer</title>
    <link rel="stylesheet" href="/app.css">
    <script src="/app.js" defer></script>
    </head>
    <body data-connection="connecting">
    <header>
      <span id="camera">phototimer</span>
      <span id="connection" class="pill">connecting…</span>
    </header>
    <main>
      <section id="live">
        <div id="stage">
          <canvas id="preview" width="640" height="360" aria-label="live preview"></canvas>
          <div id="count" aria-live="assertive"></div>
          <div id="message"></div>
        </div>
        <div id="controls">
          <p id="status" class="plain" aria-live="polite">Connecting to the camera…</p>
          <div id="actions">
            \#(actionButtons)
          </div>
          <div id="seconds" role="radiogroup" aria-label="countdown">
            \#(countdownButtons)
          </div>
          <label id="auto-start" class="switch" hidden>
            <input type="checkbox" id="start-when-ready" role="switch">
            <span>\#(PhotoTimerPresentation.Action.autoStart.title)</span>
            <small>the count starts once everyone is in and still</small>
          </label>
          <p id="note" hidden></p>
          <ul id="checklist"></ul>
        </div>
      </section>
      <section id="photo" hidden>
        <img id="photo-image" alt="the photo just taken">
        <div id="review" class="row" hidden>
          <button id="keep-photo" class="primary" data-intent="keep" disabled>\#(PhotoTimerPresentation.Action.keep.title)</button>
          <button id="retake-photo" data-intent="retake" disabled>\#(PhotoTimerPresentation.Action.retake.title)</button>
        </div>
        <ul id="summary"></ul>
        <div id="guests" hidden>
          <img id="guest-code" alt="the guests' QR code">
          <p>Guests: scan this for the photos</p>
        </div>
        <div class="row">
          <a id="download" class="button primary" download>Download</a>
          <button id="back">Back to the preview</button>
        </div>
      </section>
    </main>
    </body>
    </html>
    """#

  /// The style sheet.
  package static let style = #"""
    :root { color-scheme: dark; --accent: #3584e4; --ok: #33d17a; --bad: #ff7b63; }
    * { box-sizing: border-box; }
    html, body { margin: 0; background: #1e1e1e; color: #f6f5f4;
      font: 16px/1.35 system-ui, -apple-system, "Cantarell", sans-serif; }
    header { display: flex; justify-content: space-between; align-items: center; gap: 8px;
      padding: 10px 12px; background: #2b2b2b; }
    #camera { font-weight: 600; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
    .pill { font-size: 13px; padding: 2px 10px; border-radius: 999px; background: #444;
      white-space: nowrap; }
    body[data-connection="live"] .pill { background: #26a269; }
    body[data-connection="busy"] .pill, body[data-connection="closed"] .pill {
      background: #c01c28; }
    main { max-width: 720px; margin: 0 auto; padding: 8px 10px 24px; }
    main > section, #controls { min-width: 0; }
    body[data-view="photo"] #live { display: none; }
    #stage { position: relative; background: #000; border-radius: 12px; overflow: hidden;
      display: flex; align-items: center; justify-content: center; min-height: 200px; }
    #preview { display: block; width: 100%; height: auto; max-height: 62vh;
      object-fit: contain; }
    #preview.mirrored { transform: scaleX(-1); }
    #count { position: absolute; inset: 0; display: flex; align-items: center;
      justify-content: center; font-size: min(40vw, 240px); font-weight: 800; color: #fff;
      text-shadow: 0 0 24px rgba(0,0,0,.8); pointer-events: none; }
    #message { position: absolute; left: 0; right: 0; bottom: 0; padding: 8px 12px;
      background: rgba(0,0,0,.6); font-size: 14px; }
    #message:empty { display: none; }
    #status { margin: 10px 2px 8px; font-size: 18px; font-weight: 600;
      overflow-wrap: anywhere; }
    #status.busy::before { content: "◌ "; display: inline-block; animation: spin 1s linear infinite; }
    #status.success { color: var(--ok); }
    #status.failure { color: var(--bad); }
    #note { margin: 8px 2px 2px; color: #c0bfbc; overflow-wrap: anywhere; }
    ul { list-style: none; margin: 6px 0; padding: 0; }
    #checklist li { display: grid; grid-template-columns: 1.4em 5.2em 1fr auto; gap: 4px;
      padding: 6px 2px; border-bottom: 1px solid #333; font-size: 15px; }
    #checklist .mark.success { color: var(--ok); }
    #checklist .mark.failure { color: var(--bad); }
    #checklist .mark.busy::before { content: "◌"; display: inline-block;
      animation: spin 1s linear infinite; }
    #checklist .label { color: #c0bfbc; }
    #checklist .detail { overflow-wrap: anywhere; }
    #checklist .time { color: #9a9996; }
    #seconds { display: flex; gap: 8px; margin: 10px 0 4px; }
    #seconds button { flex: 1; min-height: 40px; }
    #seconds button[aria-checked="true"] { background: var(--accent); }
    .switch { display: grid; grid-template-columns: auto 1fr; column-gap: 10px;
      align-items: center; margin: 10px 2px 4px; font-size: 17px; font-weight: 600; }
    .switch[hidden] { display: none; }
    .switch input { width: 44px; height: 26px; margin: 0; grid-row: span 2;
      accent-color: var(--ok); }
    .switch small { color: #9a9996; font-weight: 400; font-size: 13px; }
    #actions { display: grid; grid-template-columns: 1fr 1fr; gap: 10px; }
    button, .button { min-height: 56px; border: 0; border-radius: 12px; background: #3d3d3d;
      color: inherit; font: inherit; font-size: 18px; font-weight: 600; cursor: pointer;
      display: flex; align-items: center; justify-content: center; text-decoration: none; }
    button.primary, .button.primary { background: var(--accent); }
    button:disabled { opacity: .35; cursor: default; }
    #start, #take-now, #keep { grid-column: span 2; min-height: 68px; font-size: 22px; }
    #start[hidden], #take-now[hidden], #keep[hidden], #retake[hidden] { display: none; }
    #photo-image { width: 100%; border-radius: 12px; display: block; margin-top: 4px; }
    #photo-image.collage { max-height: 50vh; object-fit: contain; }
    #guests { text-align: center; }
    #guests img { display: block; width: 70%; max-width: 280px; margin: 8px auto; }
    #summary li { padding: 6px 2px; border-bottom: 1px solid #333; overflow-wrap: anywhere; }
    #summary .label { color: #c0bfbc; display: inline-block; min-width: 5.5em; }
    #summary .rownote { color: #9a9996; }
    .row { display: grid; grid-template-columns: 1fr 1fr; gap: 10px; margin-top: 12px; }
    .row[hidden] { display: none; }
    /* A phone on its side: the picture (and the count over it) on the left, the status and
       the action that matters now on the right, both without scrolling. */
    @media (orientation: landscape) and (max-height: 540px) {
      header { padding: 6px 12px; }
      main { max-width: none; padding: 6px 10px 12px; }
      #live { display: grid; grid-template-columns: minmax(0, 1.25fr) minmax(0, 1fr);
        gap: 12px; align-items: start; }
      #stage { min-height: 0; }
      #preview { max-height: calc(100vh - 64px); }
      #count { font-size: min(24vw, 45vh); }
      #status { margin-top: 0; }
      #start, #take-now, #keep { min-height: 56px; }
      button, .button { min-height: 48px; }
      #photo { display: grid; grid-template-columns: minmax(0, 1.25fr) minmax(0, 1fr);
        gap: 12px; }
      #photo[hidden] { display: none; }
      #photo .row { grid-column: 2; grid-row: 1; margin-top: 4px; }
      #photo #review:not([hidden]) + #summary + .row { grid-row: 2; }
      #photo #review:not([hidden]) ~ #summary { grid-row: 3; }
      #summary { grid-column: 2; grid-row: 2; margin-top: 0; }
      #guests { grid-column: 2; }
      #photo-image { max-height: calc(100vh - 64px); object-fit: contain; grid-row: 1 / span 3; }
    }
    @keyframes spin { to { transform: rotate(360deg); } }
    """#
}
