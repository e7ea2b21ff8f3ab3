// Enhances the server-rendered chat list: deletes in place after a confirm(),
// and shows a new or renamed chat as soon as the message list announces it.
// Everything here also works without JavaScript through plain links and forms.
(() => {
  const list = document.getElementById("chat-list");
  if (!list) return;

  list.addEventListener("click", async (event) => {
    const link = event.target.closest("a[data-confirm]");
    if (!link) return;
    event.preventDefault();
    if (!confirm(link.dataset.confirm)) return;
    const item = link.closest("li[data-chat-id]");
    const id = item?.dataset.chatId;
    if (!id) return;
    const res = await fetch(`/api/chats/${encodeURIComponent(id)}`, { method: "DELETE" });
    if (!res.ok && res.status !== 404) {
      location.href = link.href;
      return;
    }
    if (location.pathname === `/c/${id}`) location.href = "/";
    else item.remove();
  });

  document.addEventListener("assistant:chat", (event) => {
    const { id, title } = event.detail ?? {};
    if (!id) return;
    let items = list.querySelector("[data-chat-items]");
    if (!items) {
      list.querySelector(".chat-list-empty")?.remove();
      items = document.createElement("ul");
      items.className = "chat-items";
      items.dataset.chatItems = "";
      list.querySelector(".chat-list-head").after(items);
    }
    let item = items.querySelector(`li[data-chat-id="${CSS.escape(id)}"]`);
    if (!item) {
      item = document.createElement("li");
      item.dataset.chatId = id;
      const a = document.createElement("a");
      a.href = `/c/${id}`;
      item.append(a);
    }
    for (const other of items.querySelectorAll("li.current")) other.classList.remove("current");
    item.classList.add("current");
    const a = item.querySelector("a");
    a.setAttribute("aria-current", "page");
    if (title) a.textContent = title;
    else if (!a.textContent) a.textContent = "…";
    items.prepend(item);
  });
})();
