// A WCF (System.ServiceModel) client of GetCurrency, used to check that the sandbox's faults are
// readable by WCF: run test/interop/wcf/run.sh (needs Debian's mono-devel; not part of npm test).
using System;
using System.ServiceModel;
using System.ServiceModel.Channels;
using System.Xml.Serialization;

[XmlType(Namespace = "http://mp.example/")]
public class GetValue {
	public string CultureID; public string Description; public int FieldID; public int OrganisationID;
	[XmlElement(IsNullable = true)] public int? SortOrder; public string Value;
}

[ServiceContract(Namespace = "http://mp.example/")]
[XmlSerializerFormat]
public interface IPosting {
	[OperationContract(Action = "http://mp.example/GetCurrency")]
	[return: XmlArrayItem("GetValue", IsNullable = true)]
	GetValue[] GetCurrency(string sCultureID, string sAPIKey);
}

public static class Program {
	public static int Main(string[] args) {
		var soap12 = args.Length > 2 && args[2] == "soap12";
		Binding binding = soap12
			? (Binding) new CustomBinding(new TextMessageEncodingBindingElement(MessageVersion.Soap12, System.Text.Encoding.UTF8), new HttpTransportBindingElement())
			: new BasicHttpBinding();
		var factory = new ChannelFactory<IPosting>(binding, new EndpointAddress(args[0]));
		var channel = factory.CreateChannel();
		try {
			var rows = channel.GetCurrency("en-GB", args[1]);
			Console.WriteLine("OK " + rows.Length + " rows, first " + rows[0].Value);
			return 0;
		} catch (FaultException<ExceptionDetail> e) {
			Console.WriteLine("FaultException<ExceptionDetail> code=" + e.Code.Name + " reason=" + e.Message + " detail.Type=" + e.Detail.Type + " detail.Message=" + e.Detail.Message);
			return 0;
		} catch (FaultException e) {
			Console.WriteLine("FaultException code=" + e.Code.Name + " sub=" + (e.Code.SubCode == null ? "-" : e.Code.SubCode.Name) + " reason=" + e.Message);
			return 0;
		} catch (Exception e) {
			Console.WriteLine("OTHER " + e.GetType().FullName + ": " + e.Message);
			return 1;
		}
	}
}
