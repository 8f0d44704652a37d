// The hosted file's FileMaker scripts, as JavaScript handlers the emulator runs (docs/emulator.md, "Scripts").
export default {
  // How many invoices a contact has: what a real file's script would count through the relation.
  "Count Invoices": ({ param, records }) => {
    const [contact] = records.find("Contacts Web", [{ id: `==${param}` }]);
    return contact ? contact.portalData.Invoices.length : { error: 401 };
  },
};
