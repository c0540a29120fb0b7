/* "My programme" (issue 41): the sessions of the papers on the reader's reading list in time order, and the
 * same as an iCalendar file made here, in the browser, since the list lives here. Each paper's record
 * (assets/reading/, publish/reading_list.py) carries its timed sessions: [session, start, end, zone, room, UID,
 * key], the times as the pages write them (an instant with its offset, a floating time without one, a day for an
 * all-day event). reading-list.js hands this script the entries it shows; assets/times.js writes the times on
 * the clock the reader chose. The file's events carry the UIDs of the paper's own .ics, so that importing
 * both, or this one again, updates the events rather than adding them twice. No request, no inline script.
 */
(function () {
  "use strict";

  var OFFSET = /(Z|[+-]\d\d:\d\d)$/;

  function sessionsOf(entries) {
    var items = [];
    entries.forEach(function (entry) {
      var record = entry.record;
      if (!record || !Array.isArray(record.sessions)) return;
      record.sessions.forEach(function (s) {
        if (!Array.isArray(s) || typeof s[1] !== "string" || !s[1]) return;
        items.push({ session: String(s[0] || ""), start: s[1], end: String(s[2] || ""), zone: String(s[3] || ""),
                     room: String(s[4] || ""), uid: String(s[5] || ""), key: String(s[6] || ""),
                     paper: String(record.title || ""), url: new URL(record.url, entry.root).href,
                     programme: new URL("programme.html#" + encodeURIComponent(String(s[6] || "")), entry.root).href });
      });
    });
    return items.sort(function (a, b) { return moment(a.start) - moment(b.start) || (a.paper < b.paper ? -1 : 1); });
  }

  function instant(text) { return text.length > 10 && OFFSET.test(text); }
  function moment(text) { var value = Date.parse(text); return isNaN(value) ? 0 : value; }

  // -- the page ------------------------------------------------------------------------

  function when(item) {
    var span = document.createElement("span");
    span.className = "when";
    var first = document.createElement("time");
    first.setAttribute("datetime", item.start);
    span.appendChild(first);
    var last = null;
    if (item.end) {
      span.appendChild(document.createTextNode("–"));
      last = document.createElement("time");
      last.setAttribute("datetime", item.end);
      span.appendChild(last);
    }
    var times = window.proceedingsTimes;
    if (instant(item.start) && times) {
      span.setAttribute("data-when", "");
      var made = times.words(item.start, item.end, item.zone || "UTC");
      first.textContent = made.start;
      if (last) last.textContent = made.end;
      var label = document.createElement("span");
      label.className = "zone";
      label.textContent = made.zone;
      label.title = item.zone || "UTC";
      span.appendChild(document.createTextNode(" "));
      span.appendChild(label);
    } else {  // a floating time or a day: as written
      first.textContent = item.start.replace("T", " ").slice(0, 16);
      if (last) last.textContent = item.end.replace("T", " ").slice(0, 16);
    }
    return span;
  }

  function row(item) {
    var li = document.createElement("li");
    li.className = "schedule-item";
    var facts = document.createElement("p");
    facts.className = "session-facts";
    var session = document.createElement("a");
    session.href = item.programme;
    session.textContent = item.session;
    facts.appendChild(session);
    facts.appendChild(when(item));
    if (item.room) {
      var room = document.createElement("span");
      room.className = "room";
      room.textContent = item.room;
      facts.appendChild(room);
    }
    var paper = document.createElement("a");
    paper.className = "schedule-paper";
    paper.href = item.url;
    paper.textContent = item.paper;
    li.appendChild(paper);
    li.appendChild(facts);
    return li;
  }

  var made = null;  // the last file's object URL, let go when the next is made

  function show(section, entries) {
    var items = sessionsOf(entries);
    var list = section.querySelector("[data-reading-schedule-items]");
    while (list.firstChild) list.removeChild(list.firstChild);
    items.forEach(function (item) { list.appendChild(row(item)); });
    section.hidden = !items.length;
    if (window.proceedingsTimes) window.proceedingsTimes.paint(list);
    var link = section.querySelector("[data-reading-calendar]");
    if (!link) return;
    if (made) URL.revokeObjectURL(made);
    made = URL.createObjectURL(new Blob([calendar(items, section.getAttribute("data-name") || "")],
                                        { type: "text/calendar;charset=utf-8" }));
    link.href = made;
    link.download = link.getAttribute("data-reading-calendar");
  }

  // -- the iCalendar file (RFC 5545) ----------------------------------------------------------

  function text(value) {  // §3.3.11: backslash, semicolon, comma and line breaks escaped
    return String(value).replace(/\\/g, "\\\\").replace(/;/g, "\\;").replace(/,/g, "\\,")
      .replace(/\r\n|\r|\n/g, "\\n");
  }

  function utc(date) { return date.toISOString().replace(/[-:]/g, "").replace(/\.\d+/, ""); }

  function day(text, plus) {
    var parts = text.slice(0, 10).split("-").map(Number);
    var date = new Date(Date.UTC(parts[0], parts[1] - 1, parts[2] + plus));
    return date.toISOString().slice(0, 10).replace(/-/g, "");
  }

  function times(item) {
    if (item.start.length === 10) {  // an all-day event: its end is the day after its last
      return ["DTSTART;VALUE=DATE:" + day(item.start, 0), "DTEND;VALUE=DATE:" + day(item.end || item.start, 1)];
    }
    if (instant(item.start)) {
      var lines = ["DTSTART:" + utc(new Date(item.start))];
      if (item.end) lines.push("DTEND:" + utc(new Date(item.end)));
      return lines;
    }
    var floating = function (value) { return value.replace(/[-:]/g, "").slice(0, 15); };  // 20200710T130000
    return ["DTSTART:" + floating(item.start)].concat(item.end ? ["DTEND:" + floating(item.end)] : []);
  }

  /* §3.1: lines of at most 75 octets, folded with CRLF and a space, never inside a character. */
  function fold(line) {
    var out = "", size = 0, limit = 75;
    for (var i = 0; i < line.length; i++) {
      var code = line.codePointAt(i), char = String.fromCodePoint(code);
      if (code > 0xffff) i++;
      var bytes = code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4;
      if (size + bytes > limit) { out += "\r\n "; size = 1; limit = 75; }
      out += char;
      size += bytes;
    }
    return out;
  }

  function calendar(items, name) {
    var lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Proceedings//My programme//EN", "CALSCALE:GREGORIAN",
                 "METHOD:PUBLISH"];
    if (name) lines.push("X-WR-CALNAME:" + text(name));
    var stamp = utc(new Date());
    items.forEach(function (item) {
      lines.push("BEGIN:VEVENT", "UID:" + item.uid, "DTSTAMP:" + stamp);
      lines = lines.concat(times(item));
      lines.push("SUMMARY:" + text(item.paper + " (" + item.session + ")"));
      if (item.room) lines.push("LOCATION:" + text(item.room));
      if (/^https?:\/\//.test(item.url)) lines.push("URL:" + item.url);  // a URI: file:// pages give none
      lines.push("END:VEVENT");
    });
    lines.push("END:VCALENDAR");
    return lines.map(fold).join("\r\n") + "\r\n";
  }

  window.proceedingsSchedule = { show: show, calendar: calendar, sessionsOf: sessionsOf };
})();
