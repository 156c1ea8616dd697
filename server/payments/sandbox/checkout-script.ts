/**
 * The sandbox's stand-in for Razorpay's checkout.js: defines `window.Razorpay` with the same
 * surface the app uses (`new Razorpay(options)`, `open()`, `close()`, `on("payment.failed")`,
 * `options.handler`, `options.modal.ondismiss`). Its dialog says plainly that no real money moves
 * and lets the person pay or fail; the sandbox server signs the result like Razorpay does. Opened
 * with `recurring: 1` and `customer_id` for an order that authorises a mandate, it first asks the
 * sandbox what the order authorises (`/checkout/describe`) and says so ("Authorise UPI Autopay: up
 * to ₹X a month until …", or a bank e-mandate's), and Pay authorises it.
 */
export const SANDBOX_CHECKOUT_SCRIPT = String.raw`(function () {
  "use strict";
  if (window.Razorpay && window.Razorpay.sandbox) return;
  var current = document.currentScript;
  var base = current && current.src ? current.src.replace(/\/checkout\.js(?:[?#].*)?$/, "") : "/_sandbox/razorpay";
  var CSS =
    ".rzp-sbx-overlay{position:fixed;inset:0;z-index:2147483000;background:rgba(15,23,42,.6);display:flex;align-items:center;justify-content:center;padding:16px;font-family:system-ui,-apple-system,'Segoe UI',Roboto,sans-serif}" +
    ".rzp-sbx-card{position:relative;width:100%;max-width:400px;background:#fff;color:#0f172a;border-radius:16px;box-shadow:0 25px 50px -12px rgba(0,0,0,.4);overflow:hidden}" +
    ".rzp-sbx-head{padding:20px 24px;color:#fff;background:var(--rzp-sbx-color,#4338ca)}" +
    ".rzp-sbx-head h2{margin:0;font-size:18px;font-weight:600}.rzp-sbx-head p{margin:4px 0 0;font-size:14px;opacity:.9}" +
    ".rzp-sbx-badge{display:inline-block;margin:16px 24px 0;padding:4px 10px;border-radius:999px;background:#fef3c7;color:#92400e;font-size:13px;font-weight:600;border:1px solid #fcd34d}" +
    ".rzp-sbx-body{padding:12px 24px 24px}.rzp-sbx-amount{font-size:30px;font-weight:700;margin:4px 0}" +
    ".rzp-sbx-meta{font-size:13px;color:#475569;margin:2px 0;word-break:break-all}.rzp-sbx-note{font-size:13px;color:#475569;margin:12px 0 16px;line-height:1.5}" +
    ".rzp-sbx-btn{display:block;width:100%;height:44px;border-radius:8px;font-size:15px;font-weight:600;cursor:pointer;margin-top:8px}" +
    ".rzp-sbx-pay{background:#15803d;color:#fff;border:0}.rzp-sbx-fail{background:#fff;color:#b91c1c;border:1px solid #fca5a5}" +
    ".rzp-sbx-btn:disabled{opacity:.6;cursor:progress}.rzp-sbx-btn:focus-visible,.rzp-sbx-x:focus-visible{outline:2px solid #6366f1;outline-offset:2px}" +
    ".rzp-sbx-x{position:absolute;top:12px;right:12px;width:32px;height:32px;border:0;border-radius:8px;background:rgba(255,255,255,.15);color:#fff;font-size:20px;line-height:1;cursor:pointer}" +
    ".rzp-sbx-error{margin-top:12px;padding:8px 12px;border-radius:8px;background:#fee2e2;color:#991b1b;font-size:13px}" +
    ".rzp-sbx-mandate{font-size:15px;font-weight:600;margin:8px 0 0;line-height:1.4}";

  function el(tag, className, text) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (text != null) node.textContent = String(text);
    return node;
  }

  function money(amount, currency) {
    try {
      return new Intl.NumberFormat("en-IN", { style: "currency", currency: currency || "INR" }).format(Number(amount) / 100);
    } catch (e) {
      return (currency || "INR") + " " + (Number(amount) / 100).toFixed(2);
    }
  }

  function post(path, body) {
    return fetch(base + path, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) }).then(function (res) {
      return res.json().then(function (json) {
        return { ok: res.ok, json: json };
      });
    });
  }

  function Razorpay(options) {
    if (!(this instanceof Razorpay)) return new Razorpay(options);
    if (!options || !options.key) throw new Error("Razorpay: the key option is required");
    if (!options.order_id) throw new Error("Razorpay: the order_id option is required");
    this.options = options;
    this.listeners = {};
    this.root = null;
  }

  Razorpay.sandbox = true;

  Razorpay.prototype.on = function (event, fn) {
    (this.listeners[event] = this.listeners[event] || []).push(fn);
    return this;
  };

  Razorpay.prototype.emit = function (event, payload) {
    (this.listeners[event] || []).forEach(function (fn) {
      fn(payload);
    });
  };

  Razorpay.prototype.close = function () {
    if (this.root && this.root.parentNode) this.root.parentNode.removeChild(this.root);
    if (this.onKey) document.removeEventListener("keydown", this.onKey, true);
    this.root = null;
  };

  Razorpay.prototype.open = function () {
    var self = this;
    var o = this.options;
    if (this.root) return this;
    if (!document.getElementById("rzp-sbx-style")) {
      var style = el("style");
      style.id = "rzp-sbx-style";
      style.textContent = CSS;
      document.head.appendChild(style);
    }
    var overlay = el("div", "rzp-sbx-overlay");
    var card = el("div", "rzp-sbx-card");
    card.setAttribute("role", "dialog");
    card.setAttribute("aria-modal", "true");
    card.setAttribute("aria-labelledby", "rzp-sbx-title");
    if (o.theme && o.theme.color) card.style.setProperty("--rzp-sbx-color", o.theme.color);
    var head = el("div", "rzp-sbx-head");
    var title = el("h2", null, o.name || "Checkout");
    title.id = "rzp-sbx-title";
    head.appendChild(title);
    if (o.description) head.appendChild(el("p", null, o.description));
    var close = el("button", "rzp-sbx-x", "\u00d7");
    close.type = "button";
    close.setAttribute("aria-label", "Close");
    head.appendChild(close);
    card.appendChild(head);
    card.appendChild(el("span", "rzp-sbx-badge", "Test mode \u2014 no real money"));
    var body = el("div", "rzp-sbx-body");
    var recurring = o.recurring === 1 || o.recurring === "1" || o.recurring === true;
    var label = money(o.amount, o.currency);
    var payLabel = "Pay " + label;
    var amount = el("p", "rzp-sbx-amount", label);
    body.appendChild(amount);
    // What a mandate authorises, filled in once the sandbox has said (Pay waits for it).
    var mandate = el("p", "rzp-sbx-mandate");
    mandate.hidden = true;
    body.appendChild(mandate);
    body.appendChild(el("p", "rzp-sbx-meta", "Order " + o.order_id));
    if (o.prefill && o.prefill.email) body.appendChild(el("p", "rzp-sbx-meta", "Paying as " + o.prefill.email));
    var note = el("p", "rzp-sbx-note", "This is the offline payment sandbox: no card is charged. Choose what this payment should do.");
    body.appendChild(note);
    var pay = el("button", "rzp-sbx-btn rzp-sbx-pay", payLabel);
    pay.type = "button";
    var fail = el("button", "rzp-sbx-btn rzp-sbx-fail", "Fail payment");
    fail.type = "button";
    var error = el("p", "rzp-sbx-error");
    error.setAttribute("role", "alert");
    error.hidden = true;
    body.appendChild(pay);
    body.appendChild(fail);
    body.appendChild(error);
    card.appendChild(body);
    overlay.appendChild(card);

    var request = {
      key: o.key,
      order_id: o.order_id,
      email: (o.prefill && o.prefill.email) || "",
      contact: (o.prefill && o.prefill.contact) || "",
      recurring: recurring ? 1 : 0,
      customer_id: o.customer_id || "",
    };
    function busy(on) {
      pay.disabled = on;
      fail.disabled = on;
      pay.textContent = on ? "Processing..." : payLabel;
    }
    function showError(message) {
      error.textContent = message;
      error.hidden = false;
    }
    pay.addEventListener("click", function () {
      busy(true);
      error.hidden = true;
      post("/checkout/pay", request).then(
        function (res) {
          if (!res.ok) {
            busy(false);
            showError((res.json && res.json.error && res.json.error.description) || "The sandbox refused this payment.");
            return;
          }
          self.close();
          if (typeof o.handler === "function") o.handler(res.json);
        },
        function () {
          busy(false);
          showError("Could not reach the payment sandbox.");
        }
      );
    });
    fail.addEventListener("click", function () {
      busy(true);
      error.hidden = true;
      post("/checkout/fail", request).then(
        function (res) {
          self.close();
          self.emit("payment.failed", { error: (res.json && res.json.error) || { code: "BAD_REQUEST_ERROR", description: "Payment failed" } });
        },
        function () {
          busy(false);
          showError("Could not reach the payment sandbox.");
        }
      );
    });
    function dismiss() {
      if (pay.disabled) return;
      self.close();
      if (o.modal && typeof o.modal.ondismiss === "function") o.modal.ondismiss();
    }
    close.addEventListener("click", dismiss);
    this.onKey = function (event) {
      if (event.key === "Escape") dismiss();
    };
    document.addEventListener("keydown", this.onKey, true);
    document.body.appendChild(overlay);
    this.root = overlay;
    pay.focus();
    if (recurring) {
      pay.disabled = true;
      post("/checkout/describe", { key: o.key, order_id: o.order_id }).then(
        function (res) {
          if (!res.ok) {
            showError((res.json && res.json.error && res.json.error.description) || "The sandbox does not know this order.");
            return;
          }
          var r = res.json.recurring;
          pay.disabled = false;
          if (!r) return;
          var who = o.name || "The merchant";
          var upi = r.method === "upi";
          amount.textContent = money(res.json.amount, res.json.currency);
          mandate.textContent = r.text;
          mandate.hidden = false;
          note.textContent =
            who + " may then debit your " + (upi ? "UPI account" : "bank account") +
            " up to that amount without asking each time, after a notice before each debit; " +
            (upi ? "you can revoke it in your UPI app." : "you can cancel it through your bank.") +
            " This is the offline payment sandbox: no money moves.";
          payLabel = upi ? "Authorise and pay " + money(res.json.amount, res.json.currency) : "Authorise e-mandate";
          pay.textContent = payLabel;
          fail.textContent = "Fail authorisation";
        },
        function () {
          showError("Could not reach the payment sandbox.");
        }
      );
    }
    return this;
  };

  window.Razorpay = Razorpay;
})();
`;
