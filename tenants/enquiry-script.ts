/**
 * The only JavaScript an institute's home page loads (~1.5 KB): it opens the enquiry form in a
 * dialog from the Enquire / Apply Now / Book Demo buttons and sends it without leaving the page;
 * it also closes the phone menu once a link in it is chosen.
 * Without it, the buttons jump to the form and the form posts normally.
 */
export const ENQUIRY_SCRIPT = `(function(){
var d=document.getElementById("enquiry-dialog");
document.addEventListener("click",function(e){
var t=e.target;if(!(t instanceof Element))return;
var m=t.closest("[data-site-menu]");if(m&&t.closest("a"))m.open=false;
var b=t.closest("[data-enquire]");
if(b&&d&&d.showModal){e.preventDefault();var k=b.getAttribute("data-enquire");d.querySelector("[data-enquiry-title]").textContent=k;d.querySelector("input[name=kind]").value=k;d.showModal();d.querySelector("input[name=name]").focus();return}
if(t.closest("[data-enquiry-close]")&&d)d.close();
});
if(d)d.addEventListener("click",function(e){if(e.target===d)d.close()});
document.querySelectorAll("[data-enquiry-form]").forEach(function(f){f.addEventListener("submit",function(e){
e.preventDefault();var s=f.querySelector("[data-enquiry-status]"),btn=f.querySelector("button[type=submit]");
btn.disabled=true;s.removeAttribute("data-state");s.textContent="Sending...";
var body={};new FormData(f).forEach(function(v,k){body[k]=v});
fetch("/api/enquiries",{method:"POST",headers:{"content-type":"application/json"},body:JSON.stringify(body)})
.then(function(r){return r.json().catch(function(){return{}}).then(function(j){if(!r.ok)throw new Error(j.error||"Could not send your enquiry. Please try again.");return j})})
.then(function(j){f.reset();s.setAttribute("data-state","ok");s.textContent=j.message})
.catch(function(err){s.setAttribute("data-state","error");s.textContent=err instanceof TypeError?"Network error. Please check your internet connection and try again.":err.message})
.finally(function(){btn.disabled=false});
})});
})();`;
