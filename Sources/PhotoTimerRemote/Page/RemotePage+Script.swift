import PhotoTimer

extension RemotePage {
  /// The page's script.
  package static let script = #"""
    "use strict";
    const $ = (id) => document.getElementById(id);
    const stats = { frames: 0, lastSeq: 0, connection: "connecting", status: "", count: null,
      actions: [], photos: 0, posts: 0, refused: 0, reconnects: 0, eventsOpen: false,
      faces: 0, blinking: 0 };
    window.phototimer = stats;
    let seconds = null;
    let socket = null;
    let events = null;
    let closed = false;
    let busyPost = false;
    let lastFrame = 0;
    let pending = null;
    let decoding = false;
    let retry = 1000;
    let reconnectTimer = null;
    let lastPresentation = null;

    // The token came in the link; the cookie carries it from now on: keep it out of history.
    if (location.search.includes("t=")) history.replaceState(null, "", "/");

    function setConnection(state, words) {
      stats.connection = state;
      document.body.dataset.connection = state;
      $("connection").textContent = words;
      $("message").textContent = state === "live" ? "" : words;
    }

    function text(tag, className, value) {
      const node = document.createElement(tag);
      if (className) node.className = className;
      node.textContent = value == null ? "" : value;
      return node;
    }

    function render(p) {
      lastPresentation = p;
      stats.status = p.status.text;
      stats.count = p.count;
      stats.actions = p.actions;
      $("count").textContent = p.count == null ? "" : String(p.count);
      const status = $("status");
      status.textContent = p.status.text;
      status.className = p.status.tone;
      // A refusal, else where printing is (`printing 1 of 2`, the printer's trouble).
      const printing = p.printing && p.printing.words;
      $("note").hidden = !p.note && !printing;
      $("note").textContent = p.note || printing || "";
      const list = $("checklist");
      list.replaceChildren(...p.checklist.map((row) => {
        const item = document.createElement("li");
        item.dataset.step = row.step;
        item.dataset.mark = row.mark;
        item.append(text("span", "mark " + row.tone, row.symbol || ""),
          text("span", "label", row.label), text("span", "detail", row.detail),
          text("span", "time", row.time || ""));
        return item;
      }));
      const can = (name) => !closed && p.actions.includes(name);
      const counting = can("take-now");
      // A count started (here or on the screen) brings the picture back from the photo.
      if (counting && document.body.dataset.view === "photo") showLive();
      // A booth's shot under review: Keep and Retake take Start's place, only then.
      const reviewing = can("keep");
      $("start").hidden = counting || reviewing;
      $("take-now").hidden = !counting;
      $("keep").hidden = !reviewing;
      $("retake").hidden = !can("retake");
      // Print where the program prints; Resume only while the printer is stopped.
      stats.printing = p.printing;
      $("print").hidden = p.printing == null;
      $("resume").hidden = !can("resume");
      for (const name of ["start", "take-now", "cancel", "restart", "keep", "retake", "print",
        "resume"]) {
        $(name).disabled = busyPost || !can(name);
      }
      // Under the shot itself, when the page shows it: Keep and Retake there too.
      $("review").hidden = !reviewing;
      $("keep-photo").disabled = busyPost || !reviewing;
      $("retake-photo").hidden = !can("retake");
      $("retake-photo").disabled = busyPost || !can("retake");
      for (const button of document.querySelectorAll("#seconds button")) {
        button.disabled = !can("start");
      }
      // The switch beside Start: there only where the program can watch for the people.
      stats.autoStart = p.autoStart;
      $("auto-start").hidden = p.autoStart == null;
      $("start-when-ready").checked = p.autoStart === true;
      $("start-when-ready").disabled = busyPost || !can("start-when-ready");
    }

    async function post(intent, query) {
      if (busyPost) return;
      busyPost = true;
      if (lastPresentation) render(lastPresentation);
      let path = "/api/" + intent;
      if (intent === "start" && seconds != null) path += "?seconds=" + seconds;
      if (query) path += "?" + query;
      try {
        stats.posts++;
        const answer = await fetch(path, { method: "POST", credentials: "same-origin" });
        if (answer.status === 409) stats.refused++;
      } catch (error) {
        if (!closed) setConnection("reconnecting", "reconnecting…");
      } finally {
        busyPost = false;
        if (lastPresentation) render(lastPresentation);
      }
    }

    function showPhoto(photo) {
      stats.photos++;
      $("guests").hidden = true;
      $("photo-image").classList.remove("collage");
      $("photo-image").src = photo.url;
      $("download").href = photo.url + "?download=1";
      $("download").setAttribute("download", photo.name);
      $("summary").replaceChildren(...photo.summary.map((row) => {
        const item = document.createElement("li");
        item.append(text("span", "label", row.label), text("span", "value", row.value));
        if (row.note) item.append(text("span", "rownote", " · " + row.note));
        return item;
      }));
      // The photo takes the preview's place, at the top: no jump below the buttons.
      $("photo").hidden = false;
      document.body.dataset.view = "photo";
      window.scrollTo({ top: 0 });
    }

    // A booth's collage: shown as a photo, with the guests' QR code under it.
    function showSession(session) {
      showPhoto({ url: session.collage, name: session.name, summary: [] });
      // NB: a strip is tall: it is shown whole, with the code in sight under it.
      $("photo-image").classList.add("collage");
      if (session.code) {
        $("guest-code").src = session.code;
        $("guests").hidden = false;
      }
    }

    function showLive() {
      $("photo").hidden = true;
      document.body.dataset.view = "live";
      window.scrollTo({ top: 0 });
    }

    function draw(bitmap) {
      const canvas = $("preview");
      if (canvas.width !== bitmap.width || canvas.height !== bitmap.height) {
        canvas.width = bitmap.width;
        canvas.height = bitmap.height;
      }
      const context = canvas.getContext("2d");
      context.drawImage(bitmap, 0, 0);
      outline(context, canvas.width, canvas.height);
    }

    // The faces followed, over the picture as every screen outlines them: green with open
    // eyes, amber blinking. Drawn in the camera's orientation: the canvas's style mirrors
    // them with the picture.
    function outline(context, width, height) {
      const faces = (lastPresentation && lastPresentation.faces) || [];
      stats.faces = faces.length;
      stats.blinking = faces.filter((face) => face.eyes !== "open").length;
      if (faces.length === 0) return;
      const line = Math.max(2, Math.round(Math.min(width, height) / 180));
      context.lineWidth = line;
      for (const face of faces) {
        context.strokeStyle = face.eyes === "open" ? "\#(FaceMark.Eyes.open.cssColour)"
          : "\#(FaceMark.Eyes.closed.cssColour)";
        context.strokeRect(face.x * width + line / 2, face.y * height + line / 2,
          Math.max(1, face.width * width - line), Math.max(1, face.height * height - line));
      }
    }

    async function paint(from) {
      decoding = true;
      while (pending) {
        const frame = pending;
        pending = null;
        try {
          const bitmap = await createImageBitmap(frame.blob);
          draw(bitmap);
          bitmap.close();
          stats.frames++;
          // NB: a frame decoded after the goodbye must not make the page say "live" again.
          if (!closed && stats.connection !== "busy") setConnection("live", "live");
          await new Promise((done) => requestAnimationFrame(done));
          if (from.readyState === 1) from.send("painted " + frame.seq);
        } catch (error) { /* a frame that does not decode is skipped */ }
      }
      decoding = false;
    }

    function connectPreview() {
      if (closed || document.hidden) return;
      if (socket && socket.readyState <= 1) return;
      const scheme = location.protocol === "https:" ? "wss://" : "ws://";
      socket = new WebSocket(scheme + location.host + "/api/preview");
      socket.binaryType = "arraybuffer";
      socket.onopen = () => { socket.send("ready 0"); };
      socket.onmessage = async (message) => {
        if (closed) return;
        if (typeof message.data === "string") {
          const note = JSON.parse(message.data);
          if (note.busy) setConnection("busy", "camera busy: " + note.maximumViewers +
            " viewers already watch");
          return;
        }
        const data = message.data;
        const length = new DataView(data).getUint32(0);
        const header = JSON.parse(new TextDecoder().decode(new Uint8Array(data, 4, length)));
        // The next frame travels while this one is decoded; only the newest is ever drawn.
        pending = { seq: header.seq, blob: new Blob([new Uint8Array(data, 4 + length)],
          { type: "image/jpeg" }) };
        stats.lastSeq = header.seq;
        lastFrame = performance.now();
        socket.send("ready " + header.seq);
        if (!decoding) paint(socket);
      };
      socket.onclose = () => {
        socket = null;
        if (stats.connection === "busy") { scheduleReconnect(5000); return; }
        if (!closed) {
          stats.reconnects++;
          setConnection("reconnecting", "reconnecting…");
          scheduleReconnect(retry);
          retry = Math.min(retry * 2, 5000);
        }
      };
    }

    function connectEvents() {
      if (closed || events) return;
      events = new EventSource("/api/events");
      events.onopen = () => { stats.eventsOpen = true; };
      events.addEventListener("presentation", (event) => {
        retry = 1000;
        render(JSON.parse(event.data));
        connectPreview();
      });
      events.addEventListener("photo", (event) => showPhoto(JSON.parse(event.data)));
      events.addEventListener("session", (event) => showSession(JSON.parse(event.data)));
      events.addEventListener("bye", () => {
        closed = true;
        events.close();
        events = null;
        if (socket) socket.close();
        setConnection("closed", "the program was closed");
        if (lastPresentation) render(lastPresentation);
      });
      events.onerror = () => {
        stats.eventsOpen = false;
        if (closed) return;
        setConnection("reconnecting", "reconnecting…");
        // NB: EventSource gives up for good on an HTTP error (a restarted server's 403):
        // start it again after a pause.
        if (events.readyState === 2) {
          events = null;
          scheduleReconnect(retry);
        }
      };
    }

    function scheduleReconnect(delay) {
      clearTimeout(reconnectTimer);
      reconnectTimer = setTimeout(() => { connectEvents(); connectPreview(); }, delay);
    }

    // A frame asked for and not come (the camera was quiet, or the server's wait ended): ask
    // again, which also keeps the socket alive.
    setInterval(() => {
      if (socket && socket.readyState === 1 && performance.now() - lastFrame > 2500) {
        socket.send("ready " + stats.lastSeq);
        lastFrame = performance.now();
      }
    }, 1000);

    document.addEventListener("visibilitychange", () => {
      if (document.hidden) {
        if (socket) socket.close();
      } else {
        connectEvents();
        connectPreview();
      }
    });

    async function start() {
      for (const button of document.querySelectorAll("#actions button, #review button")) {
        button.addEventListener("click", () => post(button.dataset.intent));
      }
      for (const button of document.querySelectorAll("#seconds button")) {
        button.addEventListener("click", () => {
          seconds = Number(button.dataset.seconds);
          for (const other of document.querySelectorAll("#seconds button")) {
            other.setAttribute("aria-checked", String(other === button));
          }
        });
      }
      $("back").addEventListener("click", showLive);
      $("start-when-ready").addEventListener("change", (event) => {
        post("start-when-ready", "on=" + (event.target.checked ? "1" : "0"));
      });
      try {
        const answer = await fetch("/api/state", { credentials: "same-origin" });
        if (answer.ok) {
          const state = await answer.json();
          $("camera").textContent = state.camera;
          $("preview").classList.toggle("mirrored", state.mirrored);
          seconds = state.seconds;
          for (const button of document.querySelectorAll("#seconds button")) {
            button.setAttribute("aria-checked", String(Number(button.dataset.seconds) === seconds));
          }
          render(state.presentation);
        } else if (answer.status === 403) {
          setConnection("closed", "this link has expired: open the new one the program shows");
          closed = true;
          return;
        }
      } catch (error) { setConnection("reconnecting", "reconnecting…"); }
      connectEvents();
      connectPreview();
    }
    start();
    """#
}
